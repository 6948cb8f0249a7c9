"""Collecting per-item scores from the workflow's files into one frame."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from gendermt.core.errors import GenderMTError


def collect_scores(scores: Sequence[Mapping[str, Any]], data: pd.DataFrame,
                   metadata: Sequence[str]) -> pd.DataFrame:
    """Long frame ``system, prompt, metric, item_id, score`` joined with item metadata.

    ``scores``: one record per score file, as the rule gives them: ``{system, prompt, path}``
    for a file of one run (``scores/{system}/{prompt}.parquet``; its system and prompt are the
    record's), ``{path}`` for a file of many runs (``scores/comet.parquet``), whose rows name
    them.
    """
    parts = []
    for record in scores:
        path = record["path"]
        part = pd.read_parquet(path)
        if "system" in record or "prompt" in record:
            part = part.assign(system=record["system"], prompt=record["prompt"])
        elif not {"system", "prompt"} <= set(part.columns):
            raise GenderMTError(f"{path}: a score file of many runs needs system and prompt "
                                "columns; a file of one run needs a record with its system "
                                "and prompt")
        parts.append(part[["item_id", "metric", "score", "system", "prompt"]])
    scores_frame = pd.concat(parts, ignore_index=True)
    return scores_frame.merge(data[["item_id", *metadata]], on="item_id", how="left",
                              validate="many_to_one")


def score_signatures(scores: Sequence[Mapping[str, Any]]) -> dict[tuple[str, str, str], str]:
    """``{(system, prompt, metric): signature}`` of the score files (records as
    :func:`collect_scores` takes them; files without a ``signature`` column give none): the
    per-item scores' own signature, which every item of a run and metric shares."""
    import pyarrow.parquet as pq

    out: dict[tuple[str, str, str], str] = {}
    for record in scores:
        names = set(pq.read_schema(record["path"]).names)
        if "signature" not in names:
            continue
        part = pd.read_parquet(record["path"], columns=[
            c for c in ("system", "prompt", "metric", "signature") if c in names])
        if "system" in record or "prompt" in record:
            part = part.assign(system=record["system"], prompt=record["prompt"])
        for row in part[["system", "prompt", "metric", "signature"]].drop_duplicates(
                ["system", "prompt", "metric"]).itertuples(index=False):
            out[(str(row.system), str(row.prompt), str(row.metric))] = str(row.signature)
    return out


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
