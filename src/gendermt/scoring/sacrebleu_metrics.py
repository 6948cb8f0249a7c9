"""BLEU, chrF and TER through sacrebleu, with the signature that says how each score was made.

Sentence-level scores use sacrebleu's sentence settings (BLEU with effective order, as
``sacrebleu --sentence-level`` does); corpus-level scores are sacrebleu's corpus statistics.
Scores are on sacrebleu's 0–100 scale (TER: edits per 100 reference words, lower is better).

BLEU's tokenizer depends on the target language (:func:`bleu_tokenizer`): ``13a``, sacrebleu's
and WMT's default, for the languages of this study (French, Italian, Greek, English, Spanish,
German...), and sacrebleu's dedicated tokenizers where whitespace does not separate words
(``zh``, ``ja-mecab``, ``ko-mecab``). The workflow's table is ``scoring.tokenize`` in the config;
an explicit ``scoring.bleu.tokenize`` overrides it for every language. chrF works on
characters and TER on its own tercom tokenisation, so neither takes a tokenizer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gendermt.core.errors import GenderMTError

METRICS = ("bleu", "chrf", "ter")
DEFAULT_TOKENIZER = "13a"
# Target languages that need a tokenizer other than 13a (sacrebleu's own recommendations).
TOKENIZERS = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}


def bleu_tokenizer(tgt_lang: str | None, table: dict[str, str] | None = None) -> str:
    """BLEU's tokenizer for a target language: ``table[lang]``, else ``table["default"]``.

    ``table`` is the config's ``scoring.tokenize`` (language code → sacrebleu tokenizer, plus
    ``default``); without it, :data:`TOKENIZERS` and 13a. Codes are matched on their primary
    subtag (``fr-FR`` → ``fr``): give ISO 639-1 codes, as data tables do.
    """
    table = {**TOKENIZERS, "default": DEFAULT_TOKENIZER, **(table or {})}
    lang = (tgt_lang or "").split("-")[0].split("_")[0].lower()
    return table.get(lang, table["default"])


def with_tokenizer(metric: str, options: dict[str, Any] | None, tgt_lang: str | None,
                   table: dict[str, str] | None = None) -> dict[str, Any]:
    """``options`` with BLEU's tokenizer for ``tgt_lang`` unless they name one already."""
    options = dict(options or {})
    if metric == "bleu" and "tokenize" not in options:
        options["tokenize"] = bleu_tokenizer(tgt_lang, table)
    return options


def _make(metric: str, options: dict[str, Any], sentence: bool):
    # sacrebleu (0.15 s) is imported by the jobs that score, not by every module that names
    # the metrics (the workflow's planning, the CLI's argument parsing)
    from sacrebleu.metrics import BLEU, CHRF, TER

    options = dict(options or {})
    if metric == "bleu":
        if sentence:
            options.setdefault("effective_order", True)
        return BLEU(**options)
    if metric == "chrf":
        return CHRF(**options)
    if metric == "ter":
        return TER(**options)
    raise GenderMTError(f"unknown metric {metric!r}; sacrebleu metrics here: {', '.join(METRICS)}")


@dataclass(frozen=True)
class Scored:
    score: float
    signature: str


def corpus_score(metric: str, hyps: Sequence[str], refs: Sequence[str],
                 options: dict[str, Any] | None = None) -> Scored:
    if len(hyps) != len(refs):
        raise GenderMTError(f"{len(hyps)} hypotheses but {len(refs)} references")
    scorer = _make(metric, options or {}, sentence=False)
    result = scorer.corpus_score(list(hyps), [list(refs)])
    return Scored(float(result.score), str(scorer.get_signature()))


def corpus_scores(metric: str, hyps: Sequence[str], refs: Sequence[str],
                  groups: Sequence[Sequence[int]],
                  options: dict[str, Any] | None = None) -> list[Scored]:
    """:func:`corpus_score` of each group of segments (positions in ``hyps``, in order), with
    every segment's statistics extracted once however many groups hold it (a table's ``all``
    row and its per-gender rows). sacrebleu's corpus score is a function of the sum of its
    segments' statistics (``_aggregate_and_compute``), integer counts, or TER's floats summed
    in segment order as ``corpus_score`` sums them, so the values are the same; an empty
    group, or a sacrebleu without those methods, is scored by ``corpus_score`` itself."""
    if len(hyps) != len(refs):
        raise GenderMTError(f"{len(hyps)} hypotheses but {len(refs)} references")
    hyps, refs = list(hyps), list(refs)
    scorer = _make(metric, options or {}, sentence=False)
    if not all(hasattr(scorer, m) for m in ("_check_corpus_score_args",
                                             "_extract_corpus_statistics",
                                             "_aggregate_and_compute")):
        return [corpus_score(metric, [hyps[i] for i in g], [refs[i] for i in g], options)
                for g in groups]
    scorer._check_corpus_score_args(hyps, [refs])  # corpus_score's own checks
    stats = scorer._extract_corpus_statistics(hyps, [refs])
    signature = str(scorer.get_signature())
    return [Scored(float(scorer._aggregate_and_compute([stats[i] for i in g]).score), signature)
            if len(g) else corpus_score(metric, [], [], options) for g in groups]


def sentence_scores(metric: str, hyps: Sequence[str], refs: Sequence[str],
                    options: dict[str, Any] | None = None) -> tuple[list[float], str]:
    if len(hyps) != len(refs):
        raise GenderMTError(f"{len(hyps)} hypotheses but {len(refs)} references")
    scorer = _make(metric, options or {}, sentence=True)
    scores = [float(scorer.sentence_score(h, [r]).score) for h, r in zip(hyps, refs, strict=True)]
    return scores, str(scorer.get_signature())
