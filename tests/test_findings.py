"""The findings page is written from one run's scorecard, never typed: every figure in it is
the run's (gendermt findings, gendermt.findings)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd
import pytest

from gendermt.cli import main
from gendermt.findings import figures_of, fmt, page

from .conftest import ROOT

LEGEND = [
    {"column": "WinoMT · accuracy (es)", "benchmark": "winomt", "key": "acc_es", "unit": "%",
     "better": "higher", "run": "es", "source": "winomt/tables/summary.csv", "how": "acc"},
    {"column": "WinoMT · ΔS (es)", "benchmark": "winomt", "key": "delta_s_es",
     "unit": "accuracy points", "better": "closer to 0", "run": "es",
     "source": "winomt/tables/summary.csv", "how": "delta_s"},
    {"column": "MT-GenEval · accuracy gap", "benchmark": "mt-geneval", "key": "gap",
     "unit": "points", "better": "closer to 0", "run": "baseline",
     "source": "mt-geneval/tables/summary.csv", "how": "gap"},
]
CARD = [
    {"system": "google", "winomt": {"run": "es", "acc_es": 53.123, "delta_s_es": 21.5},
     "mt-geneval": None},
    {"system": "apertium-en-es", "winomt": {"run": "es", "acc_es": 47.0, "delta_s_es": -3.25},
     "mt-geneval": {"run": "baseline", "gap": 12.345, "gap_ci": [10.0, 14.678]}},
    {"system": "oracle", "winomt": None,
     "mt-geneval": {"run": "baseline", "gap": None, "gap_ci": [None, None]}},
]
SUMMARY = {"run": "public", "config_files": [{"path": "config/study/public.yaml"}],
           "systems": [{"system": "google", "backend": "stored"},
                       {"system": "apertium-en-es", "backend": "apertium"},
                       {"system": "oracle", "backend": "reference-oracle"}],
           "datasets": [{"dataset": "winomt", "repository": "gabrielStanovsky/mt_gender",
                         "commit": "586292861cf2efdda2dec03c69c3408995a8b293",
                         "licence": "MIT", "files": [{"file": "en.txt"}]}]}


def write_run(root: Path, card=CARD) -> Path:
    (root / "scorecard").mkdir(parents=True)
    (root / "report").mkdir()
    (root / "scorecard" / "scorecard.json").write_text(json.dumps(card))
    pd.DataFrame(LEGEND).to_csv(root / "scorecard" / "legend.csv", index=False)
    (root / "report" / "run.json").write_text(json.dumps(SUMMARY))
    # the run's own Markdown scorecard carries the quality floors' marks
    (root / "scorecard" / "scorecard.md").write_text(
        "| system | WinoMT · accuracy (es) | WinoMT · ΔS (es) | MT-GenEval · accuracy gap |\n"
        "|---|--:|--:|--:|\n"
        "| google | 53.12 | 21.50 (low quality) |  |\n")
    return root


def expected_figures(card=CARD) -> list[str]:
    out = []
    for bench in ("winomt", "mt-geneval"):  # the page's order
        keys = [f["key"] for f in LEGEND if f["benchmark"] == bench]
        for record in card:
            part = record[bench]
            if part is None:
                continue
            out += [fmt(math.nan if part.get(k) is None else part[k], part.get(f"{k}_ci"))
                    for k in keys]
    return out


def test_every_figure_on_the_page_is_the_runs(tmp_path):
    text = page(write_run(tmp_path / "public"), "gendermt findings")
    assert figures_of(text) == expected_figures()
    assert "53.12" in text and "12.35 [10.00, 14.68]" in text and "–" in text
    # what the figures show is generated from them: the best system by each figure's
    # direction, reference points left out
    assert "accuracy (es): google (53.12, of 2)" in text
    # google's ΔS is below the quality floor: marked, and no contender
    assert "| google | 53.12 | 21.50 (low quality) |" in text
    assert "ΔS (es): apertium-en-es (-3.25, the only one)" in text
    assert "accuracy gap: apertium-en-es (12.35, the only one)" in text
    assert "oracle (oracle)" in text  # marked as a reference point
    assert "gabrielStanovsky/mt_gender" in text and "`586292861cf2`" in text


def test_a_changed_run_changes_the_page(tmp_path):
    changed = json.loads(json.dumps(CARD))
    changed[0]["winomt"]["acc_es"] = 60.0
    text = page(write_run(tmp_path / "public", changed), "gendermt findings")
    assert "60.00" in text and "53.12" not in text
    assert figures_of(text) == expected_figures(changed)


def test_the_command_writes_the_page_and_names_itself(tmp_path, capsys):
    results = write_run(tmp_path / "public")
    out = tmp_path / "findings.md"
    assert main(["findings", "--results", str(results), "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert f"gendermt findings --results {results} --out {out}" in text
    assert main(["findings", "--results", str(tmp_path / "nothing")]) == 2
    assert "not a finished run's results folder" in capsys.readouterr().err


PUBLIC = ROOT / "results" / "public"


@pytest.mark.skipif(not (PUBLIC / "scorecard" / "scorecard.json").is_file(),
                    reason="no results/public (run config/study/public.yaml first)")
def test_docs_findings_is_the_public_runs_page():
    # CI runs the public study, then this: the committed page must be the run's, figure for
    # figure (regenerate it with the command the page names)
    committed = (ROOT / "docs" / "findings.md").read_text(encoding="utf-8")
    regenerated = page(PUBLIC, "gendermt findings --results results/public --out "
                               "docs/findings.md")
    assert figures_of(committed) == figures_of(regenerated)
    assert committed == regenerated
