"""Score one system's WinoMT translations: align, read the entity's gender, compute metrics.

Workflow stage ``winomt_gender``: ``translations/{system}/{lang}.jsonl`` + ``data.parquet`` →
a per-sentence table (``gender/{system}/{lang}.parquet``) and its metrics (``.json``).
"""

from __future__ import annotations

import logging
import time
from typing import Any

import pandas as pd

from gendermt.io import read_jsonl, write_json, write_parquet, write_table

from . import LANGUAGES
from .align import align, linked_targets, source_tokens, tokenize
from .metrics import compute
from .morphology import read_genders

log = logging.getLogger(__name__)


def predict(data: pd.DataFrame, hypotheses: list[str], lang: str,
            alignment: dict[str, Any] | None = None) -> tuple[pd.DataFrame, dict[str, Any]]:
    """The per-sentence table (gold, predicted gender, aligned words, evidence) of one
    system's translations, in item order, and facts about how it was made."""
    if len(hypotheses) != len(data):
        raise ValueError(f"{len(hypotheses)} translations for {len(data)} items")
    timing = {}
    t0 = time.perf_counter()
    src = [source_tokens(s, i, e) for s, i, e in
           zip(data["source"], data["entity_index"], data["entity"], strict=True)]
    tgt = [tokenize(h) for h in hypotheses]
    fwd, rev = align([[t.text for t in s] for s, _ in src], [[t.text for t in t] for t in tgt],
                     alignment)
    timing["align_s"] = time.perf_counter() - t0
    positions = [linked_targets(f, r, p) for f, r, (_, p) in zip(fwd, rev, src, strict=True)]
    t1 = time.perf_counter()
    readings, reader = read_genders(lang, hypotheses, tgt, positions)
    timing["gender_s"] = time.perf_counter() - t1
    table = data[["item_id", "gold", "stereotype", "entity", "source"]].copy()
    table["translation"] = hypotheses
    table["aligned"] = [" ".join(t[k].text for k in p) for t, p in zip(tgt, positions,
                                                                       strict=True)]
    table["predicted"] = [r.gender for r in readings]
    table["evidence"] = [r.evidence for r in readings]
    table["correct"] = table["gold"] == table["predicted"]
    return table, {"reader": reader, "alignment": dict(alignment or {}), **timing}


def score_file(translations: str, data_path: str, lang: str, alignment: dict[str, Any],
               table_out: str, summary_out: str, system: str = "",
               sentences_csv: str | None = None) -> None:
    """Workflow stage (see the module docstring)."""
    if lang not in LANGUAGES:
        raise ValueError(f"WinoMT prompts are named by target language ({', '.join(LANGUAGES)}); "
                         f"got {lang!r}")
    data = pd.read_parquet(data_path)
    records = {r["item_id"]: r["hypothesis"] for r in read_jsonl(translations)}
    hyps = [records[i] for i in data["item_id"]]
    t0 = time.perf_counter()
    table, facts = predict(data, hyps, lang, alignment)
    seconds = time.perf_counter() - t0
    metrics = compute(table)
    log.info("%s %s: acc %.1f, ΔG %.1f, ΔS %s in %.1f s", system, lang, metrics["acc"],
             metrics["delta_g"], f"{metrics['delta_s']:.1f}" if "delta_s" in metrics else "-",
             seconds)
    table = table.assign(system=system, lang=lang)
    write_parquet(table_out, table)
    if sentences_csv:
        write_table(table, sentences_csv)
    write_json(summary_out, {"system": system, "lang": lang, **metrics, **facts,
                             "seconds": seconds})
