"""MT-GenEval's explorer (gendermt.report.explorer): each segment with every system's output and
the words the official rule found in it: those unique to the reference of the segment's own
gender (right) and those unique to the other gender's (wrong)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from gendermt.report.explorer import Explorer, Item, Output, explore, parquet_records, text_or_none

READING = (
    "The gendered words found in each output (MT-GenEval's official rule): words unique to "
    "the reference of the segment's own gender, and words unique to the other gender's "
    "reference. An output with a word of the other gender is wrong; one with none is right "
    "(also when it has no gendered word at all).")


def read(runs: Sequence[Mapping[str, Any]], data: str,
         systems: Sequence[str] | None = None) -> Explorer:
    """``runs``: ``{system, prompt, path}`` records of ``items/<system>/<prompt>.parquet``."""
    return gendered_word_explorer("MT-GenEval", runs, data, systems)


def gendered_word_explorer(label: str, runs: Sequence[Mapping[str, Any]], data: str,
                           systems: Sequence[str] | None = None) -> Explorer:
    """The explorer of a benchmark scored by MT-GenEval's gendered-word rule (MT-GenEval, the
    declared benchmarks): per-segment decisions beside the data's source and reference."""
    meta = pd.read_parquet(data).set_index("item_id")

    def item(run: Mapping[str, Any], item_id: str, rec: Mapping[str, Any]) -> Item:
        return _item(run["prompt"], item_id, rec, meta.loc[rec["item_id"]])

    return explore(label, READING, runs, parquet_records(), item, _output, systems,
                   gold_label="gender", groups=["language", "set"])


def _output(run: Mapping[str, Any], rec: Mapping[str, Any], item: Item) -> Output:
    right = text_or_none(rec.get("correct_words")) or ""
    wrong = text_or_none(rec.get("incorrect_words")) or ""
    read = ("other gender's words" if wrong else "own gender's words" if right
            else "no gendered word")
    evidence = "; ".join(part for part in (
        f"own: {right}" if right else "", f"other: {wrong}" if wrong else "") if part)
    return Output(text=text_or_none(rec.get("hypothesis")), read=read,
                  correct=bool(rec["correct"]), evidence=evidence)


def _item(prompt: str, item_id: str, rec: Mapping[str, Any], meta: pd.Series) -> Item:
    texts = {}
    context = text_or_none(meta.get("context"))
    if context:
        texts["context"] = context
    counterfactual = text_or_none(meta.get("counterfactual_reference"))
    if counterfactual:
        texts["other gender's reference"] = counterfactual
    groups = {"language": text_or_none(rec.get("tgt_lang")) or ""}
    if text_or_none(rec.get("set")):
        groups["set"] = str(rec["set"])
    return Item(run=prompt, item_id=item_id, source=str(meta.get("source") or ""),
                gold=text_or_none(rec.get("gender")) or "",
                reference=text_or_none(meta.get("reference")) or "", texts=texts,
                groups=groups)
