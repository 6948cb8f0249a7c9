"""Every CPU metric behind one interface: sacrebleu's BLEU, chrF, TER and the authors' BLEU.

``corpus_score`` and ``sentence_scores`` dispatch on the metric's lower-case name. Neural
metrics (``comet``, ``bertscore``) run in environments of their own and are not here: see
:mod:`gendermt.scoring.comet` and :mod:`gendermt.scoring.bertscore`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gendermt.core.errors import GenderMTError
from gendermt.scoring import nltk_bleu, sacrebleu_metrics
from gendermt.scoring.sacrebleu_metrics import Scored

CPU_METRICS = (*sacrebleu_metrics.METRICS, nltk_bleu.NAME)
NEURAL_METRICS = ("comet", "bertscore")


def check_metrics(metrics: Sequence[str], allowed: Sequence[str] = CPU_METRICS,
                  option: str = "--metrics") -> None:
    """Every name of ``metrics`` is one of ``allowed`` (checked before any work is done)."""
    if not metrics:
        raise GenderMTError(f"{option}: no metric named")
    unknown = [m for m in metrics if m not in allowed]
    if unknown:
        neural = [m for m in NEURAL_METRICS if m not in allowed]
        also = f"; {', '.join(neural)}: gendermt score mt" if neural else ""
        raise GenderMTError(f"{option}: unknown metric{'s' if len(unknown) > 1 else ''} "
                            f"{', '.join(map(repr, unknown))}; this command takes "
                            f"{', '.join(allowed)}{also}")


def _check(metric: str, hyps: Sequence[str], refs: Sequence[str]) -> None:
    if metric not in CPU_METRICS:
        raise GenderMTError(f"unknown metric {metric!r}; metrics here: {', '.join(CPU_METRICS)}"
                            f" (neural: {', '.join(NEURAL_METRICS)})")
    if len(hyps) != len(refs):
        raise GenderMTError(f"{len(hyps)} hypotheses but {len(refs)} references")


def corpus_score(metric: str, hyps: Sequence[str], refs: Sequence[str],
                 options: dict[str, Any] | None = None) -> Scored:
    """A corpus-level score; for ``bleu_nltk_m4`` the mean sentence score, as the authors did."""
    _check(metric, hyps, refs)
    if metric == nltk_bleu.NAME:
        return Scored(nltk_bleu.corpus_mean(hyps, refs), nltk_bleu.SIGNATURE + "|corpus:mean")
    return sacrebleu_metrics.corpus_score(metric, hyps, refs, options)


def corpus_scores(metric: str, hyps: Sequence[str], refs: Sequence[str],
                  groups: Sequence[Sequence[int]],
                  options: dict[str, Any] | None = None) -> list[Scored]:
    """:func:`corpus_score` of each group of segments (positions in ``hyps``, in order); the
    sacrebleu metrics extract each segment's statistics once for all groups."""
    _check(metric, hyps, refs)
    if metric == nltk_bleu.NAME:
        hyps, refs = list(hyps), list(refs)
        return [corpus_score(metric, [hyps[i] for i in g], [refs[i] for i in g], options)
                for g in groups]
    return sacrebleu_metrics.corpus_scores(metric, hyps, refs, groups, options)


def sentence_scores(metric: str, hyps: Sequence[str], refs: Sequence[str],
                    options: dict[str, Any] | None = None) -> tuple[list[float], str]:
    _check(metric, hyps, refs)
    if metric == nltk_bleu.NAME:
        return nltk_bleu.sentence_scores(hyps, refs), nltk_bleu.SIGNATURE
    return sacrebleu_metrics.sentence_scores(metric, hyps, refs, options)
