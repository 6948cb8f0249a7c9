"""GATE's table: precision, recall and F0.5 (GateEval.py's definitions) of every system ×
prompt, per language and direction, overall and per category label."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from gendermt.benchmarks.gate.metric import evaluate, signature
from gendermt.data.io import read_jsonl, write_table, write_text
from gendermt.scoring.metric_signature import COLUMN as SIGNATURE
from gendermt.scoring.output_quality import (
    CLEAN_SHARE_FLOOR,
    mark,
    note,
    share_text,
    with_run_quality,
)


def scores_of(data: pd.DataFrame, outputs: Mapping[str, str], min_words: int | None,
              max_words: int | None, full_set_recall: bool) -> pd.DataFrame:
    """One row per language × gender × category (``overall`` first)."""
    rows = []
    for (language, gender), part in data.groupby(["language", "requested_gender"],
                                                 sort=False):
        part = part.sort_values("row")
        reference = pd.DataFrame({
            "source": part["source"].to_numpy(), "labels": part["labels"].to_numpy(),
            "label_list": [list(dict.fromkeys(s.strip().split(";"))) for s in part["labels"]],
            "f": part["reference"].to_numpy(), "m": part["reference"].to_numpy()})
        hyps = [outputs[i] for i in part["item_id"]]
        result = evaluate(reference, hyps, gender, min_words, max_words, full_set_recall)
        for category, stats in result.items():
            rows.append({"language": language, "gender": gender, "category": category,
                         **stats})
    return pd.DataFrame(rows)


def build_tables(data_path: str | Path, runs: Sequence[Mapping[str, Any]],
                 outputs: Mapping[str, str], min_words: int | None = None,
                 max_words: int | None = None, full_set_recall: bool = False,
                 checks: str | Path | None = None, floor: float = CLEAN_SHARE_FLOOR) -> None:
    """Workflow stage: every run's outputs (``{system, prompt, path}`` records of its
    translation file) → ``tables/prf.{csv,md}``; ``checks``: the benchmark's
    output_checks.csv, whose clean share (and the low-quality mark below ``floor``, %) each
    row carries (gendermt.scoring.output_quality)."""
    data = pd.read_parquet(data_path)
    parts = []
    for run in runs:
        hyps = {r["item_id"]: r["hypothesis"] for r in read_jsonl(run["path"])}
        parts.append(scores_of(data, hyps, min_words, max_words, full_set_recall)
                     .assign(system=run["system"], prompt=run["prompt"]))
    table = pd.concat(parts, ignore_index=True)
    front = ["system", "prompt"]
    # after the figures, before the run's quality (the last columns); the Markdown leaves
    # it out
    table = table[front + [c for c in table.columns if c not in front]].assign(
        **{SIGNATURE: signature(min_words, max_words, full_set_recall)})
    table = with_run_quality(table, checks, floor)
    write_table(table, outputs["prf"])
    overall = table[table["category"] == "overall"].drop(columns=["category", SIGNATURE])
    quality = ""
    if "clean_share" in overall.columns:
        overall = overall.assign(
            system=[mark(s, q) for s, q in zip(overall["system"], overall["low_quality"],
                                               strict=True)],
            clean=overall["clean_share"].map(share_text)).drop(
            columns=["clean_share", "low_quality"])
        quality = f" {note(floor)}"
    write_text(outputs["prf_md"], "GATE: exact-match precision, recall and F0.5 (overall; "
               f"per category label in prf.csv).{quality}\n\n"
               + overall.to_markdown(index=False, floatfmt=".3f") + "\n")
