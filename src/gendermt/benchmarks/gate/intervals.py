"""GATE's headline figure with its interval and paired tests (gendermt.analysis.intervals):
exact-match rewriting accuracy (Σ matches / Σ count over the overall rows of prf.csv), over
the data's rows (a row of a language's TSV: both of its rewriting directions resampled
together).

Each resample recomputes it as :func:`.tables.scores_of` does, from per-row counts: a
direction's output matches (GateEval's exact match, stripped) where the row passes the word
filters; it counts where it passes them, or always with ``full_set_recall``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import pandas as pd

from gendermt.analysis.intervals import Group, Spec, by_units, ratio, write_intervals
from gendermt.benchmarks.gate.metric import MATCH, outcome
from gendermt.data.io import read_jsonl

UNIT = "row"
COUNTS = ("matches", "count")
FIGURE = Spec("accuracy", "higher", ratio(0, 1), proportion=(0, 1))


def row_counts(data: pd.DataFrame, outputs: Mapping[str, str], min_words: int | None = None,
               max_words: int | None = None, full_set_recall: bool = False) -> pd.DataFrame:
    """One row per (language, row) with ``matches`` and ``count`` over its directions."""
    lengths = data["source"].astype(str).str.strip().str.split().map(len)
    keep = pd.Series(True, index=data.index)
    if max_words is not None:
        keep &= lengths <= max_words
    if min_words is not None:
        keep &= lengths >= min_words
    match = [outcome(outputs[i], r) == MATCH
             for i, r in zip(data["item_id"], data["reference"], strict=True)]
    frame = pd.DataFrame({"unit": data["language"].astype(str) + ":" + data["row"].astype(str),
                          "matches": (pd.Series(match, index=data.index) & keep).astype(float),
                          "count": (keep | bool(full_set_recall)).astype(float)})
    return frame.groupby("unit", sort=True)[list(COUNTS)].sum().reset_index()


def groups(data_path: str | Path, runs: Sequence[Mapping[str, str]],
           min_words: int | None = None, max_words: int | None = None,
           full_set_recall: bool = False) -> list[Group]:
    """``runs``: records ``{system, prompt, path}`` of the translation files → the groups of
    runs scored on the same rows."""
    data = pd.read_parquet(data_path)
    frames = {}
    for record in runs:
        outputs = {r["item_id"]: r["hypothesis"] for r in read_jsonl(record["path"])}
        frames[(str(record["system"]), str(record["prompt"]))] = row_counts(
            data, outputs, min_words, max_words, full_set_recall)
    out = []
    for members in by_units(frames, "unit"):
        group = Group(UNIT, [FIGURE])
        for run, frame in members.items():
            group.columns[run] = frame[list(COUNTS)].to_numpy(dtype=float)
        out.append(group)
    return out


def build_intervals(data_path: str | Path, runs: Sequence[Mapping[str, str]],
                    outputs: Mapping[str, str | Path], bootstrap: Mapping | None = None,
                    min_words: int | None = None, max_words: int | None = None,
                    full_set_recall: bool = False) -> None:
    """Workflow stage: every run's outputs → ``tables/intervals.csv`` and
    ``tables/pairs.csv``."""
    write_intervals(groups(data_path, runs, min_words, max_words, full_set_recall),
                    bootstrap, outputs)
