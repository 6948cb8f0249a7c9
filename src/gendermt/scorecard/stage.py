"""Workflow stage: the benchmarks' tables → the scorecard's files and its heatmap."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from gendermt.data.io import write_text
from gendermt.scorecard.build import build
from gendermt.scorecard.heatmap import draw
from gendermt.scorecard.page import page
from gendermt.scorecard.write import write_scorecard


def make_scorecard(results: str | Path, benchmarks: Sequence[str], systems: Sequence[str],
                   outputs: dict, bootstrap: dict | None = None,
                   score_records: Sequence[Mapping[str, Any]] | None = None,
                   floors: Mapping[str, Any] | None = None,
                   reader_inputs: dict[str, dict] | None = None,
                   headline: Mapping[str, Mapping[str, str]] | None = None,
                   prompt_order: Mapping[str, Sequence[str]] | None = None,
                   kinds: Mapping[str, str] | None = None) -> None:
    """``outputs``: csv, legend, md, tex, json, png, pdf (and html, the report's) paths;
    ``floors``: quality floors by figure key (``scorecard.quality_floors`` in config);
    ``reader_inputs``: files the benchmarks' readers read beyond their tables;
    ``headline``: per benchmark, a system's headline prompt (``scorecard.headline_prompts``);
    ``prompt_order``: per benchmark, its configured prompts (the default headline: the first
    a system ran); ``kinds``: each system's kind (oracles never lead a figure)."""
    card = build(results, list(benchmarks), systems, bootstrap,
                 score_records, floors, reader_inputs, headline, prompt_order, kinds)
    write_scorecard(card, outputs["csv"], outputs["legend"], outputs["md"], outputs["tex"],
                    outputs["json"])
    draw(card, outputs["png"], outputs["pdf"])
    if "html" in outputs:
        write_text(outputs["html"], page(card))
