"""The first hallucination filter of the judge (paper §3): is the occurrence the LLM gives
for an occupation really in the text?

Both strings are compared after the lexicon's normalisation (case, accents, final sigma,
apostrophes), with rapidfuzz's ``partial_ratio``: the best alignment of the occurrence with
any substring of the text, 0–100. An occurrence scoring below the configured threshold
(``fuzzy_threshold``, default 85) is dropped as a hallucination.
"""

from __future__ import annotations

from gendermt.benchmarks.gambit.lexicon import normalise

DEFAULT_THRESHOLD = 85.0


def match_score(occurrence: str, text: str) -> float:
    """How well ``occurrence`` matches somewhere in ``text``: 0–100 (100: found as is)."""
    from rapidfuzz import fuzz

    occ, txt = " ".join(normalise(occurrence or "").split()), " ".join(normalise(text or "")
                                                                       .split())
    if not occ or not txt:
        return 0.0
    if occ in txt:
        return 100.0
    return float(fuzz.partial_ratio(occ, txt))


def passes(occurrence: str, text: str, threshold: float = DEFAULT_THRESHOLD
           ) -> tuple[bool, float]:
    score = match_score(occurrence, text)
    return score >= threshold, score
