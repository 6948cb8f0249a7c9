"""One translation file → per-item scores and corpus scores, overall and per group."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow.parquet as pq

from gendermt.errors import GenderMTError
from gendermt.io import read_jsonl, write_json, write_parquet
from gendermt.progress import Progress

from .metrics import corpus_scores, sentence_scores
from .normalization import normalize_all, signed
from .sacrebleu_metrics import with_tokenizer

log = logging.getLogger(__name__)


def target_language(frame: pd.DataFrame) -> str | None:
    """The one target language of ``frame`` (its ``tgt_lang`` column), or None without one."""
    if "tgt_lang" not in frame.columns:
        return None
    langs = sorted(frame["tgt_lang"].dropna().astype(str).unique())
    if len(langs) > 1:
        # one corpus score needs one tokenizer: score each target language on its own
        raise GenderMTError(f"the items have several target languages ({', '.join(langs)}); "
                            "score each language separately")
    return langs[0] if langs else None


def score_frame(frame: pd.DataFrame, metrics: Sequence[str], options: dict[str, dict] | None,
                group_by: Sequence[str] = (), tokenize: dict[str, str] | None = None,
                normalize: str | None = None) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Score ``frame`` (columns ``item_id, hypothesis, reference`` and the ``group_by`` ones).

    BLEU's tokenizer comes from ``options["bleu"]["tokenize"]`` if set, else from the
    ``tokenize`` table for the frame's ``tgt_lang`` (see ``sacrebleu_metrics.bleu_tokenizer``).
    Returns per-item scores in long form (``item_id, metric, score, signature``) and a summary
    ``{metric: {"signature", "corpus": {"all": s, <group>: s, ...}, "n": {...}}}``.
    ``normalize`` names a hypothesis normaliser (:mod:`.normalization`) applied before every
    metric; the signatures then end in ``|hyp:<name>``.
    """
    options = options or {}
    if normalize is not None:
        frame = frame.assign(hypothesis=normalize_all(frame["hypothesis"], normalize))
    tgt_lang = target_language(frame)
    # the corpus scores: every item, then each group; a segment's statistics are extracted
    # once for all of them (corpus_scores)
    frame = frame.reset_index(drop=True)
    keys, groups = ["all"], [list(range(len(frame)))]
    for column in group_by:
        for value, part in frame.groupby(column, sort=False):
            keys.append(str(value))
            groups.append(part.index.tolist())
    rows, summary = [], {}
    progress = Progress(len(metrics), "metrics", unit="metric")
    for metric in metrics:
        opts = with_tokenizer(metric, options.get(metric), tgt_lang, tokenize)
        scores, sent_sig = sentence_scores(metric, frame["hypothesis"], frame["reference"], opts)
        sent_sig = signed(sent_sig, normalize)
        rows.append(pd.DataFrame({"item_id": frame["item_id"], "metric": metric,
                                  "score": scores, "signature": sent_sig}))
        scored = corpus_scores(metric, frame["hypothesis"], frame["reference"], groups, opts)
        overall, corpus, counts = scored[0], {}, {}
        for key, group, score in zip(keys, groups, scored, strict=True):
            corpus[key], counts[key] = score.score, len(group)
        summary[metric] = {"signature": signed(overall.signature, normalize),
                           "sentence_signature": sent_sig,
                           "corpus": corpus, "n": counts}
        progress.update()
    progress.close()
    return pd.concat(rows, ignore_index=True), summary


def score_file(translations: str | Path, data: str | Path, output: str | Path,
               summary_path: str | Path, metrics: Sequence[str],
               options: dict[str, dict] | None = None, group_by: Sequence[str] = (),
               tokenize: dict[str, str] | None = None, normalize: str | None = None) -> None:
    """Workflow stage: a translation file → ``scores/{system}/{prompt}.parquet`` (+ ``.json``)."""
    hyps = pd.DataFrame(read_jsonl(translations))[["item_id", "hypothesis"]]
    names = pq.read_schema(data).names
    refs = pd.read_parquet(data, columns=["item_id", "reference", *group_by,
                                          *(["tgt_lang"] if "tgt_lang" in names else [])])
    frame = refs.merge(hyps, on="item_id", how="left", validate="one_to_one")
    missing = int(frame["hypothesis"].isna().sum())
    if missing:
        raise GenderMTError(f"{translations}: {missing} of {len(frame)} items have no hypothesis")
    scores, summary = score_frame(frame, metrics, options, group_by, tokenize, normalize)
    log.info("%s: %s", translations, {m: round(s["corpus"]["all"], 2) for m, s in summary.items()})
    write_parquet(output, scores)
    write_json(summary_path, {"translations": str(translations), "metrics": summary,
                              "hypothesis_normalization": normalize})
