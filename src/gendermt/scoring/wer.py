"""Word error rate: word-level Levenshtein distance over the reference's length.

Words are whitespace-separated tokens, compared exactly (case and punctuation count), as
jiwer does by default. The corpus rate sums edits and reference words over all pairs (not a
mean of sentence rates); it is returned in percent, as GATE X-E's Table 6 reports it.
"""

from __future__ import annotations

from collections.abc import Sequence

from gendermt.core.errors import GenderMTError
from gendermt.scoring.metric_signature import metric_signature

#: Bumped when the computation below changes.
SIGNATURE_VERSION = 1
#: Whitespace words compared exactly; edits and reference words summed over the corpus.
SIGNATURE = metric_signature("wer", SIGNATURE_VERSION,
                             {"tok": "whitespace", "case": "mixed", "corpus": "summed-edits",
                              "scale": "x100"})


def word_edits(hypothesis: str, reference: str) -> int:
    """Substitutions + deletions + insertions turning ``reference`` into ``hypothesis``."""
    hyp, ref = hypothesis.split(), reference.split()
    previous = list(range(len(hyp) + 1))
    for i, r in enumerate(ref, start=1):
        current = [i] + [0] * len(hyp)
        for j, h in enumerate(hyp, start=1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1,
                             previous[j - 1] + (r != h))
        previous = current
    return previous[-1]


def corpus_wer(hypotheses: Sequence[str], references: Sequence[str]) -> float:
    """Corpus WER in percent: total word edits / total reference words × 100."""
    if len(hypotheses) != len(references):
        raise GenderMTError(f"{len(hypotheses)} hypotheses but {len(references)} references")
    words = sum(len(r.split()) for r in references)
    if words == 0:
        raise GenderMTError("WER is undefined: the references have no words")
    edits = sum(word_edits(h, r) for h, r in zip(hypotheses, references, strict=True))
    return 100.0 * edits / words
