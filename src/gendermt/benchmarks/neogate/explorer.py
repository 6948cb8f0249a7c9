"""Neo-GATE's explorer (gendermt.report.explorer): each sentence with every system's output per
run (format × shots × paradigm), and what Neo-GATE's metric found in it: the annotated words
rendered with the paradigm's neomorphemes, those rendered masculine or feminine, and the
mis-generations."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from gendermt.report.explorer import Explorer, Item, Output, explore, parquet_records, text_or_none

READING = (
    "Neo-GATE's reading of each output: of the sentence's annotated words, how many the "
    "output renders with the run's paradigm (its neomorphemes), the words it renders "
    "masculine or feminine instead, and its mis-generations (neomorphemes on words that "
    "should have none). Right: every annotated word in the paradigm's form and no "
    "mis-generation.")


def read(runs: Sequence[Mapping[str, Any]], data: str,
         systems: Sequence[str] | None = None) -> Explorer:
    """``runs``: ``{system, prompt, paradigm, path}`` records of
    ``scores/<system>/<run>.parquet``."""
    meta = pd.read_parquet(data).set_index("item_id")

    def item(run: Mapping[str, Any], item_id: str, rec: Mapping[str, Any]) -> Item:
        paradigm = run.get("paradigm", "")
        row = meta.loc[rec["item_id"]]
        return Item(run=run["prompt"], item_id=item_id, source=str(row["source"]),
                    gold=paradigm, reference=text_or_none(row.get(f"ref_{paradigm}")) or "",
                    texts={"masculine reference": text_or_none(row.get("ref_male")) or ""},
                    groups={"paradigm": paradigm})

    return explore("Neo-GATE", READING, runs, parquet_records(), item, _output, systems,
                   gold_label="paradigm", groups=["paradigm"])


def _output(run: Mapping[str, Any], rec: Mapping[str, Any], item: Item) -> Output:
    paradigm = run.get("paradigm", "")
    annotated, right = int(rec["n_annotations"]), int(rec["correct"])
    wrong = int(rec["misgenerations"])
    return Output(text=text_or_none(rec.get("hypothesis")),
                  read=f"{right} of {annotated} in {paradigm}" + (
                      f", {wrong} mis-generated" if wrong else ""),
                  correct=annotated > 0 and right == annotated and not wrong,
                  evidence=_evidence(rec))


def _evidence(rec: Mapping[str, Any]) -> str:
    parts = [f"extraction: {rec['extraction']}"] if text_or_none(rec.get("extraction")) else []
    for key, label in (("correct_words", "in paradigm"), ("masculine_words", "masculine"),
                       ("feminine_words", "feminine"), ("misgenerations_words",
                                                        "mis-generated")):
        if text_or_none(rec.get(key)):
            parts.append(f"{label}: {rec[key]}")
    return "; ".join(parts)
