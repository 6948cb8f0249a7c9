"""WinoMT's explorer (gendermt.report.explorer): per target language, each sentence with every
system's translation, the entity's gender the headline reader read from it and its evidence
(the aligned word and the cue that decided), beside the gold gender and the stereotype."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from gendermt.report.explorer import Explorer, Item, Output, in_run_order, systems_in, text_or_none

READING = (
    "The gender of the sentence's entity that the {reader} reader read from each translation "
    "(male, female, neutral, unknown), checked against the gold gender; the evidence is the "
    "word aligned with the entity and what decided its gender.")


def read(runs: Sequence[Mapping[str, Any]], reader: str = "corrected",
         systems: Sequence[str] | None = None) -> Explorer:
    """``runs``: ``{system, prompt, path}`` records of the reader's per-sentence tables
    (``gender/<reader>/<system>/<lang>.parquet``)."""
    items: dict[tuple[str, str], Item] = {}
    for run in runs:
        frame = pd.read_parquet(run["path"])
        for rec in frame.to_dict("records"):
            key = (run["prompt"], str(rec["item_id"]))
            item = items.get(key)
            if item is None:
                item = items[key] = Item(
                    run=run["prompt"], item_id=key[1], source=rec["source"],
                    gold=rec.get("gold") or "",
                    groups={"stereotype": text_or_none(rec.get("stereotype")) or "",
                            "entity": text_or_none(rec.get("entity")) or ""})
            item.outputs[run["system"]] = Output(
                text=text_or_none(rec.get("translation")),
                read=text_or_none(rec.get("predicted")) or "",
                correct=bool(rec["correct"]) if text_or_none(rec.get("correct")) else None,
                evidence=_evidence(rec))
    return Explorer("WinoMT", READING.format(reader=reader), systems_in(runs, systems),
                    in_run_order(items.values(), runs),
                    gold_label="gold gender", groups=["stereotype", "entity"])


def _evidence(rec: Mapping[str, Any]) -> str:
    evidence = text_or_none(rec.get("evidence")) or ""
    aligned = text_or_none(rec.get("aligned"))
    if aligned and aligned not in evidence:
        evidence = f"aligned: {aligned}" + (f"; {evidence}" if evidence else "")
    if rec.get("artefact") is True:
        evidence += " (an alignment artefact)"
    return evidence
