"""ConGA's explorer (gendermt.report.explorer): each gENder-IT sentence with every system's
Italian output and its ConGA reading: each entity of the tagged English (M, F, or A for
ambiguous) against the gender its annotation gives it in the output."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pandas as pd

from gendermt.report.explorer import Explorer, Item, Output, explore, text_or_none

READING = (
    "ConGA's reading of each annotated output: every entity of the tagged English source (M, "
    "F, or A: ambiguous) against the gender its annotation gives it in the output. Wrong: a "
    "gender error (M→F, F→M); right: no error and at least one entity matched; an ambiguous "
    "entity rendered with a gender (A→M, A→F) is ConGA's bias, shown but not an error. "
    "Outputs nobody annotated have no reading.")


def read(runs: Sequence[Mapping[str, Any]], data: str,
         systems: Sequence[str] | None = None) -> Explorer:
    """``runs``: ``{system, prompt, path}`` records of ``sentences/<system>/<prompt>.csv``."""
    meta = pd.read_parquet(data).set_index("item_id")

    def item(run: Mapping[str, Any], item_id: str, rec: Mapping[str, Any]) -> Item:
        row = meta.loc[rec["item_id"]]
        return Item(run=run["prompt"], item_id=item_id, source=str(row["source"]),
                    gold=_source_genders(str(row.get("source_tagged") or "")),
                    reference=text_or_none(row.get("reference")) or "",
                    texts={"tagged": str(row.get("source_tagged") or "")})

    return explore("ConGA", READING, runs, _records, item,
                   lambda run, rec, item: _output(rec), systems, gold_label="source genders")


def _records(run: Mapping[str, Any]) -> Iterator[tuple[str, dict]]:
    frame = pd.read_csv(run["path"], dtype={"item_id": str})
    return ((str(rec["item_id"]), rec) for rec in frame.to_dict("records"))


def _count(rec: Mapping[str, Any], key: str) -> int:
    value = rec.get(key)
    return int(value) if text_or_none(value) else 0


def _output(rec: Mapping[str, Any]) -> Output:
    text = text_or_none(rec.get("hypothesis"))
    if rec.get("status") != "annotated":
        return Output(text=text, read=str(rec.get("status") or ""), correct=None)
    errors = _count(rec, "error_m_to_f") + _count(rec, "error_f_to_m")
    matches = _count(rec, "match_m") + _count(rec, "match_f")
    biased = [f"A→{g.upper()}" for g in ("m", "f") if _count(rec, f"bias_a_to_{g}")]
    read = ("gender error" if errors else "match" if matches else "nothing matched")
    if biased:
        read += f", {'/'.join(biased)}"
    evidence = "; ".join(p for p in (text_or_none(rec.get("entities")),
                                     f"annotation: {rec['annotation']}"
                                     if text_or_none(rec.get("annotation")) else None) if p)
    return Output(text=text, read=read, correct=None if not errors and not matches
                  else not errors, evidence=evidence)


def _source_genders(tagged: str) -> str:
    """The genders of the tagged source's entities: "F, A" for <F1> … <A2>."""
    found = dict.fromkeys(re.findall(r"<([MFA])\d+>", tagged))
    return ", ".join(found)
