"""One translation file → per-item scores and corpus scores, overall and per group."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd
from tqdm import tqdm

from gendermt.errors import GenderMTError
from gendermt.io import read_jsonl, write_json, write_parquet

from .sacrebleu_metrics import corpus_score, sentence_scores

log = logging.getLogger(__name__)


def score_frame(frame: pd.DataFrame, metrics: Sequence[str], options: dict[str, dict] | None,
                group_by: Sequence[str] = ()) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Score ``frame`` (columns ``item_id, hypothesis, reference`` and the ``group_by`` ones).

    Returns per-item scores in long form (``item_id, metric, score, signature``) and a summary
    ``{metric: {"signature", "corpus": {"all": s, <group>: s, ...}, "n": {...}}}``.
    """
    options = options or {}
    rows, summary = [], {}
    for metric in tqdm(metrics, desc="metrics", unit="metric"):
        opts = options.get(metric) or {}
        scores, sent_sig = sentence_scores(metric, frame["hypothesis"], frame["reference"], opts)
        rows.append(pd.DataFrame({"item_id": frame["item_id"], "metric": metric,
                                  "score": scores, "signature": sent_sig}))
        overall = corpus_score(metric, frame["hypothesis"], frame["reference"], opts)
        corpus, counts = {"all": overall.score}, {"all": len(frame)}
        for column in group_by:
            for value, part in frame.groupby(column, sort=False):
                key = str(value)
                corpus[key] = corpus_score(metric, part["hypothesis"], part["reference"],
                                           opts).score
                counts[key] = len(part)
        summary[metric] = {"signature": overall.signature, "sentence_signature": sent_sig,
                           "corpus": corpus, "n": counts}
    return pd.concat(rows, ignore_index=True), summary


def score_file(translations: str | Path, data: str | Path, output: str | Path,
               summary_path: str | Path, metrics: Sequence[str],
               options: dict[str, dict] | None = None, group_by: Sequence[str] = ()) -> None:
    """Workflow stage: a translation file → ``scores/{system}/{prompt}.parquet`` (+ ``.json``)."""
    hyps = pd.DataFrame(read_jsonl(translations))[["item_id", "hypothesis"]]
    refs = pd.read_parquet(data, columns=["item_id", "reference", *group_by])
    frame = refs.merge(hyps, on="item_id", how="left", validate="one_to_one")
    missing = int(frame["hypothesis"].isna().sum())
    if missing:
        raise GenderMTError(f"{translations}: {missing} of {len(frame)} items have no hypothesis")
    scores, summary = score_frame(frame, metrics, options, group_by)
    log.info("%s: %s", translations, {m: round(s["corpus"]["all"], 2) for m, s in summary.items()})
    write_parquet(output, scores)
    write_json(summary_path, {"translations": str(translations), "metrics": summary})
