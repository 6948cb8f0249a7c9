"""MT-GenEval's accuracy, as its official ``accuracy_metric.py`` defines it.

Each segment is lower-cased, ASCII punctuation becomes spaces, and it is split into a set of
words. The words of the correct-gender reference that the counterfactual reference lacks are the
*correct* words; those of the counterfactual reference that the correct one lacks are the
*incorrect* words. An output is incorrect when it contains an incorrect word, and correct
otherwise (even when it contains no correct word). On the counterfactual set an item is correct
only when both its masculine and its feminine translations are.

One departure, which no item of the release meets: an empty reference (no word at all) makes
the output incorrect. The rule would find no incorrect word and count it correct, so that a
blank reference cell raised the accuracy (issue 51).
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from dataclasses import dataclass

from gendermt.scoring.metric_signature import metric_signature

_STRIP_PUNCT = str.maketrans(string.punctuation, " " * len(string.punctuation))
#: Bumped when the rule below changes.
SIGNATURE_VERSION = 1
NAME = "gendered_word_accuracy"
RULE = "MT-GenEval accuracy_metric.py"


def signature(basis: str = "reference") -> str:
    """The accuracy's signature: the official rule it reproduces and what its gendered words
    come from (``reference``: the two references' differing words; ``words``: word lists)."""
    return metric_signature(NAME, SIGNATURE_VERSION, {"rule": RULE, "basis": basis})


def clean(text: str) -> str:
    return text.lower().translate(_STRIP_PUNCT).strip()


def words(text: str) -> set[str]:
    return set(clean(text).split())


@dataclass(frozen=True)
class Decision:
    correct: bool
    correct_words: frozenset[str]    # output ∩ words unique to the correct-gender reference
    incorrect_words: frozenset[str]  # output ∩ words unique to the counterfactual reference


def decide(hypothesis: str, reference: str, counterfactual: str) -> Decision:
    hyp, ref, ctf = words(hypothesis), words(reference), words(counterfactual)
    right, wrong = hyp & (ref - ctf), hyp & (ctf - ref)
    # nothing to compare against is never a correct output
    return Decision(bool(ref) and not wrong, frozenset(right), frozenset(wrong))


def decisions(hypotheses: Sequence[str], references: Sequence[str],
              counterfactuals: Sequence[str]) -> list[Decision]:
    if not len(hypotheses) == len(references) == len(counterfactuals):
        raise ValueError(f"{len(hypotheses)} outputs for {len(references)} references and "
                         f"{len(counterfactuals)} counterfactual references")
    triples = zip(hypotheses, references, counterfactuals, strict=True)
    return [decide(h, r, c) for h, r, c in triples]


def accuracy(flags: Sequence[bool]) -> float | None:
    """The share of correct decisions, a fraction in [0, 1]; None for no item."""
    return sum(flags) / len(flags) if flags else None
