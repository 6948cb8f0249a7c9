"""`gendermt findings` on the default run (issue 53): the page of a run on the project's
samples warns so at its top, and says nothing of systems or data the run has not (Apertium,
the real data, WinoMT's published outputs), nor of "another change"."""

from __future__ import annotations

import pytest


@pytest.mark.workflow
def test_the_default_runs_findings_page_warns_and_names_only_what_it_has(default_run, capsys):
    from gendermt.cli import main

    default_run.require_success()
    results = default_run.path("results/default")
    assert main(["findings", "--results", str(results)]) == 0
    text = capsys.readouterr().out
    head = text.split("\n## ", 1)[0]
    assert "> **Sample data.** Every data set of this run is a sample" in head
    for stale in ("Apertium", "real data", "published with WinoMT", "added by another change",
                  "No LLM has run"):
        assert stale not in text, stale
    # the default runs LLMs (SmolLM2, Gemma): no "no LLM" section either
    assert "## LLMs" not in text
