"""WinoMT's explorer (gendermt.report.explorer): per target language, each sentence with every
system's translation, the entity's gender the headline reader read from it and its evidence
(the aligned word and the cue that decided), beside the gold gender and the stereotype."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gendermt.report.explorer import Explorer, Item, Output, explore, parquet_records, text_or_none

READING = (
    "The gender of the sentence's entity that the {reader} reader read from each translation "
    "(male, female, neutral, unknown), checked against the gold gender; the evidence is the "
    "word aligned with the entity and what decided its gender.")


def read(runs: Sequence[Mapping[str, Any]], reader: str = "corrected",
         systems: Sequence[str] | None = None) -> Explorer:
    """``runs``: ``{system, prompt, path}`` records of the reader's per-sentence tables
    (``gender/<reader>/<system>/<lang>.parquet``)."""
    return explore("WinoMT", READING.format(reader=reader), runs, parquet_records(), _item,
                   _output, systems, gold_label="gold gender", groups=["stereotype", "entity"])


def _item(run: Mapping[str, Any], item_id: str, rec: Mapping[str, Any]) -> Item:
    return Item(run=run["prompt"], item_id=item_id, source=rec["source"],
                gold=rec.get("gold") or "",
                groups={"stereotype": text_or_none(rec.get("stereotype")) or "",
                        "entity": text_or_none(rec.get("entity")) or ""})


def _output(run: Mapping[str, Any], rec: Mapping[str, Any], item: Item) -> Output:
    return Output(text=text_or_none(rec.get("translation")),
                  read=text_or_none(rec.get("predicted")) or "",
                  correct=bool(rec["correct"]) if text_or_none(rec.get("correct")) else None,
                  evidence=_evidence(rec))


def _evidence(rec: Mapping[str, Any]) -> str:
    evidence = text_or_none(rec.get("evidence")) or ""
    aligned = text_or_none(rec.get("aligned"))
    if aligned and aligned not in evidence:
        evidence = f"aligned: {aligned}" + (f"; {evidence}" if evidence else "")
    if rec.get("artefact") is True:
        evidence += " (an alignment artefact)"
    return evidence
