"""One run (system × prompt) of a declared benchmark → per-segment decisions and a summary.

Gendered-word accuracy is MT-GenEval's official rule, computed by its package's functions
(:mod:`gendermt.benchmarks.mt_geneval.metric`): the words of a segment's own reference (or
word list) that the other gender's lacks are *correct*, the other's that its own lacks are
*incorrect*; an output is wrong when it has an incorrect word, and a pair is correct only
when each gender's output is. BLEU/chrF are the project's sacrebleu metrics
(:mod:`gendermt.scoring.metrics`), per gender against its own and against the other gender's
reference. Every figure comes per gender and as the gap (the first gender's minus the
second's)."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gendermt.benchmarks.declared.spec import SACREBLEU_METRICS
from gendermt.benchmarks.mt_geneval.metric import NAME, accuracy, decisions, signature

if TYPE_CHECKING:
    import pandas as pd

log = logging.getLogger(__name__)

ACCURACY = NAME
#: The references a run is scored against with BLEU/chrF: the segment's own gender's and the
#: other gender's (how close it is to the wrong gender).
AGAINST = {"own": "reference", "other": "counterfactual_reference"}


def accuracy_basis(data: pd.DataFrame) -> str:
    """``words`` when the benchmark gives gendered-word lists, else ``reference``."""
    return "words" if (data["words"].fillna("") != "").any() else "reference"


def accuracy_signature(basis: str) -> str:
    """What decided the accuracy, in the tables: MT-GenEval's signature (its name, version,
    rule and basis), the same as the MT-GenEval package's tables carry."""
    return signature(basis)


def _joined(values) -> list[str]:
    return [" ".join(sorted(v)) for v in values]


def evaluate_segments(data: pd.DataFrame, hypotheses: Sequence[str]) -> pd.DataFrame:
    """Per segment: the output, its decision and the words behind it, and ``pair_correct``
    (every gender's output of the item correct)."""
    basis = accuracy_basis(data)
    own, other = (("words", "counterfactual_words") if basis == "words"
                  else ("reference", "counterfactual_reference"))
    found = decisions(list(hypotheses), data[own].fillna("").tolist(),
                      data[other].fillna("").tolist())
    out = data[["item_id", "pair_id", "gender", "tgt_lang", "line"]].copy()
    out["hypothesis"] = list(hypotheses)
    out["correct"] = [d.correct for d in found]
    out["correct_words"] = _joined(d.correct_words for d in found)
    out["incorrect_words"] = _joined(d.incorrect_words for d in found)
    out["pair_correct"] = out.groupby("pair_id")["correct"].transform("all")
    return out


def accuracy_rows(items: pd.DataFrame, genders: Sequence[str]) -> list[dict]:
    """Per target language: the pair accuracy, each gender's accuracy, the gap, the share of
    outputs with a correct word (the rule counts an output with no gendered word as correct:
    an untranslated one scores 1.0, this share tells them apart) and n (items)."""
    first, second = genders
    rows = []
    for lang, part in items.groupby("tgt_lang", sort=True):
        pairs = part.drop_duplicates("pair_id")
        row: dict[str, Any] = {"lang": lang, "accuracy": accuracy(pairs["pair_correct"].tolist())}
        for gender in genders:
            row[f"accuracy_{gender}"] = accuracy(
                part.loc[part["gender"] == gender, "correct"].tolist())
        a, b = row[f"accuracy_{first}"], row[f"accuracy_{second}"]
        row["accuracy_gap"] = None if a is None or b is None else a - b
        with_word = part["correct_words"].fillna("") != ""
        row["correct_word_rate"] = accuracy(with_word.tolist())
        for gender in genders:
            row[f"correct_word_rate_{gender}"] = accuracy(
                with_word[part["gender"] == gender].tolist())
        row["n"] = len(pairs)
        rows.append(row)
    return rows


def quality_rows(data: pd.DataFrame, hypotheses: Sequence[str], metrics: Sequence[str],
                 options: Mapping[str, Mapping] | None = None,
                 tokenize: Mapping[str, str] | None = None) -> list[dict]:
    """Corpus BLEU/chrF (sacrebleu, with its signature) per target language and gender
    (``all``: both genders' segments), against the own and the other gender's references."""
    from gendermt.scoring.metrics import corpus_scores
    from gendermt.scoring.sacrebleu_metrics import with_tokenizer

    frame = data.assign(hypothesis=list(hypotheses)).reset_index(drop=True)
    rows = []
    for lang, part in frame.groupby("tgt_lang", sort=True):
        groups = [("all", part), *((g, part[part["gender"] == g])
                                   for g in dict.fromkeys(part["gender"]))]
        # the language's segments are scored once per metric and reference (corpus_scores)
        positions = [part.index.get_indexer(group.index) for _, group in groups]
        scored = {}
        for metric in (m for m in metrics if m in SACREBLEU_METRICS):
            opts = with_tokenizer(metric, dict((options or {}).get(metric) or {}), lang,
                                  dict(tokenize or {}))
            for against, column in AGAINST.items():
                scored[metric, against] = corpus_scores(
                    metric, part["hypothesis"].tolist(), part[column].tolist(), positions, opts)
        rows += [{"lang": lang, "gender": gender, "metric": metric, "reference": against,
                  "score": scores[k].score, "n": len(group), "signature": scores[k].signature}
                 for k, (gender, group) in enumerate(groups)
                 for (metric, against), scores in scored.items()]
    return rows


def hypotheses_of(translations: str | Path, data: pd.DataFrame) -> list[str]:
    """The run's output for every segment, in the data's order (every segment has one)."""
    from gendermt.core.errors import GenderMTError
    from gendermt.data.io import read_jsonl

    hyps = {r["item_id"]: r["hypothesis"] for r in read_jsonl(translations)}
    missing = [i for i in data["item_id"] if i not in hyps]
    if missing:
        raise GenderMTError(f"{translations}: {len(missing)} of {len(data)} segments have no "
                            f"output (first: {missing[0]})")
    return data["item_id"].map(hyps).fillna("").astype(str).tolist()


def summarise(data: pd.DataFrame, hypotheses: Sequence[str], genders: Sequence[str],
              metrics: Sequence[str], options: Mapping[str, Mapping] | None = None,
              tokenize: Mapping[str, str] | None = None) -> tuple[pd.DataFrame, dict]:
    """The per-segment decisions and the summary (``accuracy`` rows per language with the
    metric's signature, ``quality`` rows) of one run's outputs."""
    items = evaluate_segments(data, hypotheses)
    summary: dict[str, Any] = {"segments": len(items), "accuracy": [], "quality": []}
    if ACCURACY in metrics:
        summary["accuracy_signature"] = accuracy_signature(accuracy_basis(data))
        summary["accuracy"] = accuracy_rows(items, genders)
    summary["quality"] = quality_rows(data, hypotheses, metrics, options, tokenize)
    return items, summary


def score_run(translations: str | Path, data_path: str | Path, items_out: str | Path,
              items_csv: str | Path, summary_out: str | Path, genders: Sequence[str],
              metrics: Sequence[str], options: Mapping[str, Mapping] | None = None,
              tokenize: Mapping[str, str] | None = None,
              provenance: str | Path | None = None) -> None:
    """Workflow stage: ``translations/{system}/{prompt}.jsonl`` + ``data.parquet`` → the
    per-segment decisions (``items/{system}/{prompt}.parquet`` and ``.csv``) and the run's
    summary (``.json``; with ``provenance``, the data stage's ``data.json``, the items left
    out for a blank cell per language: ``skipped_blank``)."""
    import json

    import pandas as pd

    from gendermt.data.io import write_json, write_parquet, write_table

    data = pd.read_parquet(data_path)
    hypotheses = hypotheses_of(translations, data)
    items, summary = summarise(data, hypotheses, genders, metrics, options, tokenize)
    write_parquet(items_out, items)
    write_table(items, items_csv)
    log.info("%s: %s", translations, {r["lang"]: round(r["accuracy"], 3)
                                      for r in summary["accuracy"] if r["accuracy"] is not None})
    if provenance is not None:
        summary["skipped_blank"] = json.loads(Path(provenance).read_text(
            encoding="utf-8")).get("skipped_blank", {})
    write_json(summary_out, {"translations": str(translations), **summary})
