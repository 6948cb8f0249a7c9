"""GAMBIT's explorer (gendermt.report.explorer): each text (its occupation given no gender in
English) with every system's translation per target language, and the gender the detector
assigned the occupation in it, with the words it matched. GAMBIT has no gold: the texts leave
the gender open, so there is no right or wrong, only which gender each system chose."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from gendermt.data.io import read_jsonl
from gendermt.report.explorer import Explorer, Item, Output, in_run_order, systems_in, text_or_none

READING = (
    "The gender the {detector} detector assigned the text's occupation in each translation "
    "(Masculine, Feminine, Not Clear; nothing when it found no occupation), with the form it "
    "matched. The English texts leave the gender open: no reading is right or wrong.")


def read(runs: Sequence[Mapping[str, Any]], data: str, detector: str = "lexicon",
         systems: Sequence[str] | None = None) -> Explorer:
    """``runs``: ``{system, prompt, path, assignments}`` records: the translation file and the
    detector's assignments (``assignments/<detector>/<system>/<lang>.csv``)."""
    meta = pd.read_parquet(data).set_index("item_id")
    items: dict[tuple[str, str], Item] = {}
    for run in runs:
        found: dict[str, list[dict]] = defaultdict(list)
        for rec in pd.read_csv(run["assignments"], dtype={"text_id": str}).to_dict("records"):
            found[str(rec["text_id"])].append(rec)
        for rec in read_jsonl(run["path"]):
            key = (run["prompt"], str(rec["item_id"]))
            item = items.get(key)
            if item is None:
                row = meta.loc[key[1]]
                item = items[key] = Item(
                    run=key[0], item_id=key[1], source=str(row["source"]),
                    groups={"text type": text_or_none(row.get("text_type")) or "",
                            "occupation": text_or_none(row.get("isco_title")) or ""})
            assigned = found.get(key[1], [])
            labels = list(dict.fromkeys(str(a["label"]) for a in assigned))
            item.outputs[run["system"]] = Output(
                text=text_or_none(rec.get("hypothesis")),
                read=" / ".join(labels) or "no occupation found",
                evidence="; ".join(f"{a['label']}: {a['occurrence']}" for a in assigned
                                   if text_or_none(a.get("occurrence"))))
    return Explorer("GAMBIT", READING.format(detector=detector), systems_in(runs, systems),
                    in_run_order(items.values(), runs),
                    gold_label="gold", groups=["text type", "occupation"])
