"""FairTranslate's explorer (gendermt.report.explorer): each sentence variant (male, female,
inclusive) with every system's French output per prompt, the occupation form read from it
(masculine, feminine, inclusive, or why none was), its inclusive indicators and rendering of
singular "they", and its sentence scores."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from gendermt.report.explorer import Explorer, Item, Output, gather, systems_in, text_or_none

READING = (
    "The form of the sentence's occupation found in each output (masculine, feminine, "
    "inclusive; none when the output has no form of it, only an epicene one, or two "
    "referents), checked against the variant's gender (male → masculine, female → feminine, "
    "inclusive → inclusive); the evidence gives the inclusive indicators found, how singular "
    "\"they\" was rendered and the output's sentence scores.")
FORM_OF_GENDER = {"male": "masculine", "female": "feminine", "inclusive": "inclusive"}


def read(analysed: str, data: str, scores: Sequence[Mapping[str, Any]] = (),
         systems: Sequence[str] | None = None, prompts: Sequence[str] | None = None
         ) -> Explorer:
    """``analysed``: the inclusive-language stage's per-output table
    (``inclusive/outputs.parquet``); ``scores``: ``{system, prompt, path}`` records of the
    per-item score tables (sentence BLEU, chrF)."""
    meta = pd.read_parquet(data).set_index("item_id")
    sentence_scores = _scores(scores)
    frame = pd.read_parquet(analysed)

    def item(run: Mapping[str, Any], item_id: str, rec: Mapping[str, Any]) -> Item:
        row = meta.loc[rec["item_id"]]
        return Item(run=run["prompt"], item_id=item_id, source=str(row["source"]),
                    gold=text_or_none(row.get("gender")) or "",
                    reference=text_or_none(row.get("reference")) or "",
                    groups={"stereotype": text_or_none(row.get("stereotype")) or "",
                            "ambiguity": text_or_none(row.get("ambiguity")) or ""})

    def output(run: Mapping[str, Any], rec: Mapping[str, Any], item: Item) -> Output:
        form = text_or_none(rec.get("occupation_form"))
        wanted = FORM_OF_GENDER.get(item.gold)
        read = form or f"none ({text_or_none(rec.get('occupation_dropped')) or 'dropped'})"
        if form and rec.get("occupation_doublet") is True:
            read += " (doublet)"
        return Output(
            text=text_or_none(rec.get("hypothesis")), read=read,
            correct=(form == wanted) if form and wanted else None,
            evidence=_evidence(rec, sentence_scores.get(
                (rec["system"], item.run, item.item_id), {})))

    # one table of every system's outputs: each row is its own run's record
    items = gather((({"system": str(rec["system"]), "prompt": str(rec["prompt"])},
                     str(rec["item_id"]), rec) for rec in frame.to_dict("records")),
                   item, output)
    runs = list(prompts or []) + sorted({k[0] for k in items} - set(prompts or []))
    order = {p: i for i, p in enumerate(runs)}
    seen = [{"system": s} for s in dict.fromkeys(frame["system"].astype(str))]
    return Explorer("FairTranslate", READING, systems_in(seen, systems),
                    sorted(items.values(), key=lambda i: (order[i.run], i.item_id)),
                    gold_label="gender", groups=["stereotype", "ambiguity"])


def _scores(records: Sequence[Mapping[str, Any]]) -> dict[tuple, dict[str, float]]:
    found: dict[tuple, dict[str, float]] = defaultdict(dict)
    for run in records:
        if "system" not in run:  # COMET's file of every run
            continue
        frame = pd.read_parquet(run["path"], columns=["item_id", "metric", "score"])
        for item_id, metric, score in frame.itertuples(index=False):
            found[(run["system"], run["prompt"], str(item_id))][str(metric)] = score
    return found


def _evidence(rec: Mapping[str, Any], scores: Mapping[str, float]) -> str:
    parts = []
    if text_or_none(rec.get("indicators")):
        parts.append(f"inclusive indicators: {rec['indicators']}")
    if text_or_none(rec.get("they_class")):
        pronoun = text_or_none(rec.get("they_pronoun"))
        parts.append(f"“they” → {rec['they_class']}" + (f" ({pronoun})" if pronoun else ""))
    if text_or_none(rec.get("check")) and rec["check"] != "ok":
        parts.append(f"output check: {rec['check']}")
    if scores:
        parts.append(" ".join(f"{m} {v:.1f}" for m, v in scores.items() if v == v))
    return "; ".join(parts)
