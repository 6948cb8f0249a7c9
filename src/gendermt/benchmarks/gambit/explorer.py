"""GAMBIT's explorer (gendermt.report.explorer): each text (its occupation given no gender in
English) with every system's translation per target language, and the gender the detector
assigned the occupation in it, with the words it matched. GAMBIT has no gold: the texts leave
the gender open, so there is no right or wrong, only which gender each system chose."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pandas as pd

from gendermt.data.io import read_jsonl
from gendermt.report.explorer import Explorer, Item, Output, explore, text_or_none

READING = (
    "The gender the {detector} detector assigned the text's occupation in each translation "
    "(Masculine, Feminine, Not Clear; nothing when it found no occupation), with the form it "
    "matched. The English texts leave the gender open: no reading is right or wrong.")


def read(runs: Sequence[Mapping[str, Any]], data: str, detector: str = "lexicon",
         systems: Sequence[str] | None = None) -> Explorer:
    """``runs``: ``{system, prompt, path, assignments}`` records: the translation file and the
    detector's assignments (``assignments/<detector>/<system>/<lang>.csv``)."""
    meta = pd.read_parquet(data).set_index("item_id")

    def item(run: Mapping[str, Any], item_id: str, rec: tuple[dict, list[dict]]) -> Item:
        row = meta.loc[item_id]
        return Item(run=run["prompt"], item_id=item_id, source=str(row["source"]),
                    groups={"text type": text_or_none(row.get("text_type")) or "",
                            "occupation": text_or_none(row.get("isco_title")) or ""})

    return explore("GAMBIT", READING.format(detector=detector), runs, _records, item,
                   _output, systems, gold_label="gold", groups=["text type", "occupation"])


def _records(run: Mapping[str, Any]) -> Iterator[tuple[str, tuple[dict, list[dict]]]]:
    """Each translation of the run with the detector's assignments in it."""
    found: dict[str, list[dict]] = defaultdict(list)
    for rec in pd.read_csv(run["assignments"], dtype={"text_id": str}).to_dict("records"):
        found[str(rec["text_id"])].append(rec)
    for rec in read_jsonl(run["path"]):
        item_id = str(rec["item_id"])
        yield item_id, (rec, found.get(item_id, []))


def _output(run: Mapping[str, Any], rec: tuple[dict, list[dict]], item: Item) -> Output:
    translation, assigned = rec
    labels = list(dict.fromkeys(str(a["label"]) for a in assigned))
    return Output(text=text_or_none(translation.get("hypothesis")),
                  read=" / ".join(labels) or "no occupation found",
                  evidence="; ".join(f"{a['label']}: {a['occurrence']}" for a in assigned
                                     if text_or_none(a.get("occurrence"))))
