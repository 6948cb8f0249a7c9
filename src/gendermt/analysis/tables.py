"""Collecting per-item scores from the workflow's files into one frame."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd


def run_of(score_file: str | Path) -> tuple[str, str]:
    """(system, prompt) of a per-run file ``.../{system}/{prompt}.{ext}``."""
    path = Path(score_file)
    return path.parent.name, path.name.split(".", 1)[0]


def collect_scores(score_files: Sequence[str | Path], data: pd.DataFrame,
                   metadata: Sequence[str]) -> pd.DataFrame:
    """Long frame ``system, prompt, metric, item_id, score`` joined with item metadata.

    A score file of one run (``scores/{system}/{prompt}.parquet``) takes its system and prompt
    from its path; a file of many runs (``scores/comet.parquet``) has them as columns.
    """
    parts = []
    for path in score_files:
        part = pd.read_parquet(path)
        if not {"system", "prompt"} <= set(part.columns):
            system, prompt = run_of(path)
            part = part.assign(system=system, prompt=prompt)
        parts.append(part[["item_id", "metric", "score", "system", "prompt"]])
    scores = pd.concat(parts, ignore_index=True)
    return scores.merge(data[["item_id", *metadata]], on="item_id", how="left",
                        validate="many_to_one")


def ordered(frame: pd.DataFrame, orders: dict[str, Sequence[str]]) -> pd.DataFrame:
    """Make columns categorical in the given orders (the paper's row and column order)."""
    out = frame.copy()
    for column, order in orders.items():
        if column in out.columns:
            extra = [v for v in pd.unique(out[column]) if v not in order]
            out[column] = pd.Categorical(out[column], categories=[*order, *extra], ordered=True)
    return out


def flat_pivot(frame: pd.DataFrame, index: list[str], columns: list[str], values: str
               ) -> pd.DataFrame:
    """A pivot whose column labels are joined with ' · ' (readable in Markdown)."""
    pivot = frame.pivot_table(index=index, columns=columns, values=values, observed=True,
                              aggfunc="first", sort=True)
    pivot.columns = [" · ".join(map(str, c)) if isinstance(c, tuple) else str(c)
                     for c in pivot.columns]
    return pivot.reset_index()
