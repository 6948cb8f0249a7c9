"""BLEU and chrF through sacrebleu, with the signature that says how each score was made.

Sentence-level scores use sacrebleu's sentence settings (BLEU with effective order, as
``sacrebleu --sentence-level`` does); corpus-level scores are sacrebleu's corpus statistics.
Scores are on sacrebleu's 0–100 scale.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sacrebleu.metrics import BLEU, CHRF

from gendermt.errors import GenderMTError

METRICS = ("bleu", "chrf")


def _make(metric: str, options: dict[str, Any], sentence: bool):
    options = dict(options or {})
    if metric == "bleu":
        if sentence:
            options.setdefault("effective_order", True)
        return BLEU(**options)
    if metric == "chrf":
        return CHRF(**options)
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


def sentence_scores(metric: str, hyps: Sequence[str], refs: Sequence[str],
                    options: dict[str, Any] | None = None) -> tuple[list[float], str]:
    if len(hyps) != len(refs):
        raise GenderMTError(f"{len(hyps)} hypotheses but {len(refs)} references")
    scorer = _make(metric, options or {}, sentence=True)
    scores = [float(scorer.sentence_score(h, [r]).score) for h, r in zip(hyps, refs, strict=True)]
    return scores, str(scorer.get_signature())
