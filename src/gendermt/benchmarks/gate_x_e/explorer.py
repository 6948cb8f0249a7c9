"""GATE X-E's explorer (gendermt.report.explorer): each tuple (an instance and the gender its
rewrite was asked for) with the source, the original English translation, the reference
rewrite, and every system's rewrite: exact match or not."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from gendermt.report.explorer import Explorer, Item, Output, in_run_order, systems_in, text_or_none

READING = (
    "Whether each system's rewrite of the English translation into the requested gender "
    "matches the reference rewrite exactly (GATE X-E's metric; the evidence says where only "
    "the relaxed reference matches, and what the rewriter answered).")


def read(runs: Sequence[Mapping[str, Any]], systems: Sequence[str] | None = None) -> Explorer:
    """``runs``: ``{system, prompt, path}`` records of ``rewrites/<system>/<prompt>.parquet``."""
    items: dict[tuple[str, str], Item] = {}
    for run in runs:
        for rec in pd.read_parquet(run["path"]).to_dict("records"):
            key = (run["prompt"], str(rec["tuple_id"]))
            item = items.get(key)
            if item is None:
                item = items[key] = Item(
                    run=run["prompt"], item_id=key[1], source=str(rec["source"]),
                    gold=text_or_none(rec.get("requested_gender")) or "",
                    reference=text_or_none(rec.get("reference")) or "",
                    texts={"original": text_or_none(rec.get("original")) or ""},
                    groups={"language": text_or_none(rec.get("language")) or "",
                            "category": text_or_none(rec.get("category")) or ""})
            match = bool(rec["match"])
            evidence = []
            if not match and rec.get("relaxed_match") is True:
                evidence.append("matches the relaxed reference")
            answer = text_or_none(rec.get("answer"))
            if answer:
                evidence.append(f"answer: {answer}")
            item.outputs[run["system"]] = Output(
                text=text_or_none(rec.get("rewrite")), read="match" if match else "no match",
                correct=match, evidence="; ".join(evidence))
    return Explorer("GATE X-E", READING, systems_in(runs, systems),
                    in_run_order(items.values(), runs),
                    gold_label="requested gender", groups=["language", "category"])
