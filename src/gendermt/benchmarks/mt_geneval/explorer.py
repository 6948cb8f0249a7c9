"""MT-GenEval's explorer (gendermt.report.explorer): each segment with every system's output and
the words the official rule found in it: those unique to the reference of the segment's own
gender (right) and those unique to the other gender's (wrong)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from gendermt.report.explorer import Explorer, Item, Output, in_run_order, systems_in, text_or_none

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
    items: dict[tuple[str, str], Item] = {}
    for run in runs:
        for rec in pd.read_parquet(run["path"]).to_dict("records"):
            key = (run["prompt"], str(rec["item_id"]))
            item = items.get(key)
            if item is None:
                item = items[key] = _item(run["prompt"], key[1], rec, meta.loc[rec["item_id"]])
            right = text_or_none(rec.get("correct_words")) or ""
            wrong = text_or_none(rec.get("incorrect_words")) or ""
            read = ("other gender's words" if wrong else "own gender's words" if right
                    else "no gendered word")
            evidence = "; ".join(part for part in (
                f"own: {right}" if right else "", f"other: {wrong}" if wrong else "") if part)
            item.outputs[run["system"]] = Output(
                text=text_or_none(rec.get("hypothesis")), read=read,
                correct=bool(rec["correct"]), evidence=evidence)
    return Explorer(label, READING, systems_in(runs, systems),
                    in_run_order(items.values(), runs),
                    gold_label="gender", groups=["language", "set"])


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
