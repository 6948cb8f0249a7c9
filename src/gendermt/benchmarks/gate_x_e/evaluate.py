"""Workflow stage: one system × prompt's raw answers → every tuple's rewrite and match."""

from __future__ import annotations

import logging
from pathlib import Path

import pandas as pd

from gendermt.benchmarks.gate_x_e.metric import mark, rewrites_from_answers
from gendermt.benchmarks.gate_x_e.neutral_answers import rewrites_from_neutral_answers
from gendermt.data.io import read_jsonl, write_parquet

log = logging.getLogger(__name__)


def score_run(translations: str | Path, tuples_path: str | Path, output: str | Path,
              answer: str = "variants") -> None:
    """``translations/{system}/{prompt}.jsonl`` + ``tuples.parquet`` →
    ``rewrites/{system}/{prompt}.parquet`` (tuples with ``rewrite``, ``answer``, ``match``,
    ``relaxed_match``). ``answer``: the template's answer format, ``variants`` (the three
    rewrites, or None) or ``neutral`` (the neutral rewrite alone: ``neutral_answers``)."""
    records = read_jsonl(translations)
    raws = {r["item_id"]: r["raw"] for r in records}
    finishes = {r["item_id"]: r.get("finish_reason") for r in records}
    if answer == "neutral":
        scored = mark(rewrites_from_neutral_answers(pd.read_parquet(tuples_path), raws))
    else:
        scored = mark(rewrites_from_answers(pd.read_parquet(tuples_path), raws, finishes))
    counts = scored.drop_duplicates("item_id")["answer"].value_counts().to_dict()
    log.info("%s: answers %s; %d of %d tuples match", translations, counts,
             int(scored["match"].sum()), len(scored))
    write_parquet(output, scored)
