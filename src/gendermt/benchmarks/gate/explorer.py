"""GATE's explorer (gendermt.report.explorer): each row (a sentence and the direction of its
rewrite) with the English source, the original translation, the reference rewrite and every
system's output: GateEval's exact match, mismatch or empty."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pandas as pd

from gendermt.benchmarks.gate.metric import EMPTY, MATCH, outcome
from gendermt.data.io import read_jsonl
from gendermt.report.explorer import Explorer, Item, Output, explore, text_or_none

READING = (
    "GateEval's outcome of each system's rewrite of the translation into the requested "
    "gender: match (equal to the reference after stripping), mismatch, or empty (the "
    "rewriter declined: it costs recall, not precision).")


def read(runs: Sequence[Mapping[str, Any]], data: str,
         systems: Sequence[str] | None = None) -> Explorer:
    """``runs``: ``{system, prompt, path}`` records of the translation files."""
    frame = pd.read_parquet(data)
    rows = {str(r["item_id"]): r for r in frame.to_dict("records")}

    def records(run: Mapping[str, Any]) -> Iterator[tuple[str, tuple[dict, str | None]]]:
        # the data's rows in its order, each with the run's output where it has one
        outputs = {str(r["item_id"]): r.get("hypothesis") for r in read_jsonl(run["path"])}
        return ((item_id, (row, outputs[item_id])) for item_id, row in rows.items()
                if item_id in outputs)

    return explore("GATE", READING, runs, records, _item, _output, systems,
                   gold_label="requested gender", groups=["language", "labels"])


def _item(run: Mapping[str, Any], item_id: str, rec: tuple[dict, str | None]) -> Item:
    row = rec[0]
    return Item(run=run["prompt"], item_id=item_id, source=str(row["source"]),
                gold=text_or_none(row.get("requested_gender")) or "",
                reference=text_or_none(row.get("reference")) or "",
                texts={"original": text_or_none(row.get("original")) or ""},
                groups={"language": text_or_none(row.get("language")) or "",
                        "labels": text_or_none(row.get("labels")) or ""})


def _output(run: Mapping[str, Any], rec: tuple[dict, str | None], item: Item) -> Output:
    row, hypothesis = rec
    text = hypothesis or ""
    found = outcome(text, str(row.get("reference") or ""))
    return Output(text=text, read=found, correct=None if found == EMPTY else found == MATCH)
