"""The sentence BLEU the FairTranslate authors used: NLTK's, smoothing method 4, whitespace tokens.

Their ``calculate_score.py`` calls ``nltk.translate.bleu_score.sentence_bleu([ref.split()],
hyp.split(), smoothing_function=SmoothingFunction().method4)``. This module recomputes exactly
that without NLTK (tests compare it with NLTK where NLTK is installed), so that their numbers
can be compared like for like. It is *not* sacrebleu's BLEU: no tokenisation beyond
``str.split()``, case-sensitive, uniform 1–4-gram weights, and method 4 (Chen & Cherry, 2014)
for zero n-gram counts. Scores are ×100, on the paper's percent scale.

NLTK's details kept here on purpose (they change scores):

* a hypothesis with no matching unigram scores 0;
* method 4 replaces the i-th zero precision (counting from 1) by
  ``1 / (2**i * k / ln(len(hyp)))`` over the raw n-gram count, k = 5, only when the
  hypothesis has more than one token;
* precisions still 0 after smoothing (one-token hypotheses) are left out of the geometric mean;
* the brevity penalty uses the reference length closest to the hypothesis length.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from gendermt.core.errors import GenderMTError

NAME = "bleu_nltk_m4"
MAX_ORDER = 4
K = 5  # NLTK SmoothingFunction's default k for method 4
SIGNATURE = (f"{NAME}|nltk-sentence_bleu|smooth:method4(k={K})|tok:whitespace|case:mixed|"
             f"weights:uniform-1..{MAX_ORDER}|scale:x100")


def _ngrams(tokens: Sequence[str], n: int) -> Counter:
    return Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))


def sentence_bleu_m4(hypothesis: str, reference: str) -> float:
    """One sentence's BLEU, as NLTK computes it with method-4 smoothing (×100)."""
    hyp, ref = hypothesis.split(), reference.split()
    hyp_len = len(hyp)
    numerators, denominators = [], []
    for n in range(1, MAX_ORDER + 1):
        counts, ref_counts = _ngrams(hyp, n), _ngrams(ref, n)
        numerators.append(sum(min(c, ref_counts[g]) for g, c in counts.items()))
        denominators.append(max(1, sum(counts.values())))
    if numerators[0] == 0:
        return 0.0
    precisions: list[float] = []
    zeros_seen = 1
    for num, den in zip(numerators, denominators, strict=True):
        if num == 0 and hyp_len > 1:
            precisions.append(1 / (2 ** zeros_seen * K / math.log(hyp_len)) / den)
            zeros_seen += 1
        else:
            precisions.append(num / den)
    ref_len = len(ref)
    if hyp_len == 0:
        brevity = 0.0
    elif hyp_len > ref_len:
        brevity = 1.0
    else:
        brevity = math.exp(1 - ref_len / hyp_len)
    log_sum = math.fsum(math.log(p) / MAX_ORDER for p in precisions if p > 0)
    return 100.0 * brevity * math.exp(log_sum)


def sentence_scores(hyps: Sequence[str], refs: Sequence[str]) -> list[float]:
    if len(hyps) != len(refs):
        raise GenderMTError(f"{len(hyps)} hypotheses but {len(refs)} references")
    return [sentence_bleu_m4(h, r) for h, r in zip(hyps, refs, strict=True)]


def corpus_mean(hyps: Sequence[str], refs: Sequence[str]) -> float:
    """The authors' corpus figure: the mean of the sentence scores (not a corpus BLEU)."""
    scores = sentence_scores(hyps, refs)
    return math.fsum(scores) / len(scores) if scores else math.nan
