"""One translation file → per-item scores and corpus scores, overall and per group.

The scoring works on plain columns (lists), so the workflow's ``score`` jobs read and write
their Parquet files with pyarrow alone: importing pandas was half of such a job's CPU
(issue 30). :func:`score_frame` is the same for a pandas DataFrame.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gendermt.core.errors import GenderMTError
from gendermt.data.arrow_arrays import floats, strings
from gendermt.data.io import atomic_path, read_jsonl, write_json
from gendermt.data.progress import Progress
from gendermt.scoring.metrics import corpus_scores, sentence_scores
from gendermt.scoring.normalization import normalize_all, signed
from gendermt.scoring.sacrebleu_metrics import with_tokenizer

if TYPE_CHECKING:
    import pandas as pd

log = logging.getLogger(__name__)
SCORE_COLUMNS = ("item_id", "metric", "score", "signature")


def target_language(langs: Sequence[Any] | None) -> str | None:
    """The one target language of the items' ``tgt_lang`` values, or None without them."""
    if langs is None:
        return None
    found = sorted({str(lang) for lang in langs if not _missing(lang)})
    if len(found) > 1:
        # one corpus score needs one tokenizer: score each target language on its own
        raise GenderMTError(f"the items have several target languages ({', '.join(found)}); "
                            "score each language separately")
    return found[0] if found else None


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def groups_of(values: Sequence[Any]) -> dict[str, list[int]]:
    """Positions of each value, in order of first appearance, missing values left out (as
    pandas' ``groupby(sort=False)``), keyed by the value as text."""
    groups: dict[str, list[int]] = {}
    for position, value in enumerate(values):
        if not _missing(value):
            groups.setdefault(str(value), []).append(position)
    return groups


def score_columns(columns: dict[str, Sequence[Any]], metrics: Sequence[str],
                  options: dict[str, dict] | None, group_by: Sequence[str] = (),
                  tokenize: dict[str, str] | None = None, normalize: str | None = None
                  ) -> tuple[dict[str, list[Any]], dict[str, Any]]:
    """Score items given as columns (``item_id, hypothesis, reference``, the ``group_by``
    ones and optionally ``tgt_lang``, each a sequence in item order).

    BLEU's tokenizer comes from ``options["bleu"]["tokenize"]`` if set, else from the
    ``tokenize`` table for the items' ``tgt_lang`` (see ``sacrebleu_metrics.bleu_tokenizer``).
    Returns per-item scores in long form (columns ``item_id, metric, score, signature``) and
    a summary ``{metric: {"signature", "corpus": {"all": s, <group>: s, ...}, "n": {...}}}``.
    ``normalize`` names a hypothesis normaliser (:mod:`.normalization`) applied before every
    metric; the signatures then end in ``|hyp:<name>``.
    """
    options = options or {}
    items, refs = list(columns["item_id"]), list(columns["reference"])
    hyps = list(columns["hypothesis"])
    if normalize is not None:
        hyps = normalize_all(hyps, normalize)
    tgt_lang = target_language(columns.get("tgt_lang"))
    # the corpus scores: every item, then each group; a segment's statistics are extracted
    # once for all of them (corpus_scores)
    keys, groups = ["all"], [list(range(len(items)))]
    for column in group_by:
        for value, positions in groups_of(columns[column]).items():
            keys.append(value)
            groups.append(positions)
    out: dict[str, list[Any]] = {name: [] for name in SCORE_COLUMNS}
    summary = {}
    progress = Progress(len(metrics), "metrics", unit="metric")
    for metric in metrics:
        opts = with_tokenizer(metric, options.get(metric), tgt_lang, tokenize)
        scores, sent_sig = sentence_scores(metric, hyps, refs, opts)
        sent_sig = signed(sent_sig, normalize)
        out["item_id"] += items
        out["metric"] += [metric] * len(items)
        out["score"] += list(scores)
        out["signature"] += [sent_sig] * len(items)
        scored = corpus_scores(metric, hyps, refs, groups, opts)
        overall, corpus, counts = scored[0], {}, {}
        for key, group, score in zip(keys, groups, scored, strict=True):
            corpus[key], counts[key] = score.score, len(group)
        summary[metric] = {"signature": signed(overall.signature, normalize),
                           "sentence_signature": sent_sig,
                           "corpus": corpus, "n": counts}
        progress.update()
    progress.close()
    return out, summary


def score_frame(frame: pd.DataFrame, metrics: Sequence[str], options: dict[str, dict] | None,
                group_by: Sequence[str] = (), tokenize: dict[str, str] | None = None,
                normalize: str | None = None) -> tuple[pd.DataFrame, dict[str, Any]]:
    """:func:`score_columns` of a DataFrame (columns ``item_id, hypothesis, reference``, the
    ``group_by`` ones, optionally ``tgt_lang``); the per-item scores as a DataFrame."""
    import pandas as pd

    names = ["item_id", "hypothesis", "reference", *group_by,
             *(["tgt_lang"] if "tgt_lang" in frame.columns else [])]
    # missing values (NaN, None, pd.NA of a nullable column) as None, as pandas' groupby
    # leaves them out
    columns = {name: frame[name].astype(object).where(frame[name].notna(), None).tolist()
               for name in dict.fromkeys(names)}
    scores, summary = score_columns(columns, metrics, options, group_by, tokenize, normalize)
    return pd.DataFrame(scores, columns=list(SCORE_COLUMNS)), summary


def score_file(translations: str | Path, data: str | Path, output: str | Path,
               summary_path: str | Path, metrics: Sequence[str],
               options: dict[str, dict] | None = None, group_by: Sequence[str] = (),
               tokenize: dict[str, str] | None = None, normalize: str | None = None) -> None:
    """Workflow stage: a translation file → ``scores/{system}/{prompt}.parquet`` (+ ``.json``)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    hyps: dict[Any, Any] = {}
    for record in read_jsonl(translations):
        if record["item_id"] in hyps:
            raise GenderMTError(f"{translations}: item {record['item_id']!r} appears twice")
        hyps[record["item_id"]] = record.get("hypothesis")
    names = pq.read_schema(data).names
    wanted = ["item_id", "reference", *group_by, *(["tgt_lang"] if "tgt_lang" in names else [])]
    # ParquetFile, not read_table: that imports pyarrow.dataset, and pandas with it
    refs = pq.ParquetFile(data).read(columns=list(dict.fromkeys(wanted)))
    columns = refs.to_pydict()
    items = columns["item_id"]
    if len(set(items)) != len(items):
        raise GenderMTError(f"{data}: some item_id appears more than once")
    columns["hypothesis"] = [hyps.get(item) for item in items]
    missing = sum(_missing(h) for h in columns["hypothesis"])
    if missing:
        raise GenderMTError(f"{translations}: {missing} of {len(items)} items have no hypothesis")
    scores, summary = score_columns(columns, metrics, options, group_by, tokenize, normalize)
    log.info("%s: %s", translations, {m: round(s["corpus"]["all"], 2) for m, s in summary.items()})
    # the types pandas 3 (the pinned one) writes: text as large_string, NaN as null
    item_ids = refs.column("item_id").combine_chunks()
    if pa.types.is_dictionary(item_ids.type):
        item_ids = item_ids.dictionary_decode()
    if pa.types.is_string(item_ids.type):
        item_ids = item_ids.cast(pa.large_string())
    table = pa.Table.from_arrays(
        [pa.concat_arrays([item_ids] * len(metrics)) if metrics else item_ids.slice(0, 0),
         strings(scores["metric"]), floats(scores["score"]), strings(scores["signature"])],
        names=list(SCORE_COLUMNS))
    with atomic_path(output) as tmp:
        pq.write_table(table, tmp)
    write_json(summary_path, {"translations": str(translations), "metrics": summary,
                              "hypothesis_normalization": normalize})
