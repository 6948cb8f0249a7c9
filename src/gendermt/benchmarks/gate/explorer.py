"""GATE's explorer (gendermt.report.explorer): each row (a sentence and the direction of its
rewrite) with the English source, the original translation, the reference rewrite and every
system's output: GateEval's exact match, mismatch or empty."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from gendermt.benchmarks.gate.metric import EMPTY, MATCH, outcome
from gendermt.data.io import read_jsonl
from gendermt.report.explorer import Explorer, Item, Output, in_run_order, systems_in, text_or_none

READING = (
    "GateEval's outcome of each system's rewrite of the translation into the requested "
    "gender: match (equal to the reference after stripping), mismatch, or empty (the "
    "rewriter declined: it costs recall, not precision).")


def read(runs: Sequence[Mapping[str, Any]], data: str,
         systems: Sequence[str] | None = None) -> Explorer:
    """``runs``: ``{system, prompt, path}`` records of the translation files."""
    frame = pd.read_parquet(data)
    rows = {str(r["item_id"]): r for r in frame.to_dict("records")}
    items: dict[tuple[str, str], Item] = {}
    for run in runs:
        outputs = {str(r["item_id"]): r.get("hypothesis") for r in read_jsonl(run["path"])}
        for item_id, row in rows.items():
            if item_id not in outputs:
                continue
            key = (run["prompt"], item_id)
            item = items.get(key)
            if item is None:
                item = items[key] = Item(
                    run=run["prompt"], item_id=item_id, source=str(row["source"]),
                    gold=text_or_none(row.get("requested_gender")) or "",
                    reference=text_or_none(row.get("reference")) or "",
                    texts={"original": text_or_none(row.get("original")) or ""},
                    groups={"language": text_or_none(row.get("language")) or "",
                            "labels": text_or_none(row.get("labels")) or ""})
            text = outputs[item_id] or ""
            found = outcome(text, str(row.get("reference") or ""))
            item.outputs[run["system"]] = Output(
                text=text, read=found, correct=None if found == EMPTY else found == MATCH)
    return Explorer("GATE", READING, systems_in(runs, systems),
                    in_run_order(items.values(), runs),
                    gold_label="requested gender", groups=["language", "labels"])
