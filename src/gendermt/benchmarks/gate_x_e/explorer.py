"""GATE X-E's explorer (gendermt.report.explorer): each tuple (an instance and the gender its
rewrite was asked for) with the source, the original English translation, the reference
rewrite, and every system's rewrite: exact match or not."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gendermt.report.explorer import Explorer, Item, Output, explore, parquet_records, text_or_none

READING = (
    "Whether each system's rewrite of the English translation into the requested gender "
    "matches the reference rewrite exactly (GATE X-E's metric; the evidence says where only "
    "the relaxed reference matches, and what the rewriter answered).")


def read(runs: Sequence[Mapping[str, Any]], systems: Sequence[str] | None = None) -> Explorer:
    """``runs``: ``{system, prompt, path}`` records of ``rewrites/<system>/<prompt>.parquet``."""
    return explore("GATE X-E", READING, runs, parquet_records("tuple_id"), _item, _output,
                   systems, gold_label="requested gender", groups=["language", "category"])


def _item(run: Mapping[str, Any], item_id: str, rec: Mapping[str, Any]) -> Item:
    return Item(run=run["prompt"], item_id=item_id, source=str(rec["source"]),
                gold=text_or_none(rec.get("requested_gender")) or "",
                reference=text_or_none(rec.get("reference")) or "",
                texts={"original": text_or_none(rec.get("original")) or ""},
                groups={"language": text_or_none(rec.get("language")) or "",
                        "category": text_or_none(rec.get("category")) or ""})


def _output(run: Mapping[str, Any], rec: Mapping[str, Any], item: Item) -> Output:
    match = bool(rec["match"])
    evidence = []
    if not match and rec.get("relaxed_match") is True:
        evidence.append("matches the relaxed reference")
    answer = text_or_none(rec.get("answer"))
    if answer:
        evidence.append(f"answer: {answer}")
    return Output(text=text_or_none(rec.get("rewrite")), read="match" if match else "no match",
                  correct=match, evidence="; ".join(evidence))
