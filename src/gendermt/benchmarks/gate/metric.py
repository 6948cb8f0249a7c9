"""GATE's exact-match precision, recall and F0.5 of a rewriter's outputs (GateEval.py's
definitions; datasets.md 3.2).

Each output is Empty (blank after stripping), Match (equal to the reference after
stripping) or Mismatch. Precision = Match / (Match + Mismatch), so blank lines (the rewriter
declining) cost recall only; Recall = Match / count; F0.5 = 1.25·P·R / (0.25·P + R), 0 when
the denominator is 0 (as are P and R with empty denominators). Word-length filters keep rows
whose source has ``min_words`` … ``max_words`` whitespace tokens; ``full_set_recall`` keeps
the filtered-out rows in the recall denominator (and in ``count``), overall and per label.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from gendermt.benchmarks.gate import CATEGORY_ORDER, GENDER_COLUMN
from gendermt.core.errors import GenderMTError
from gendermt.scoring.metric_signature import metric_signature

MATCH, MISMATCH, EMPTY = "match", "mismatch", "empty"
#: Bumped when the computation below changes (the tables' signatures say which one ran).
SIGNATURE_VERSION = 1
BETA = 0.5


def signature(min_words: int | None = None, max_words: int | None = None,
              full_set_recall: bool = False) -> str:
    """The metric's signature: GateEval's exact match (stripped), F-beta's beta and the
    options that change its figures."""
    return metric_signature("gate-prf", SIGNATURE_VERSION, {
        "match": "exact-stripped", "beta": BETA, "min_words": min_words,
        "max_words": max_words, "full_set_recall": bool(full_set_recall)})


def outcome(prediction: str, reference: str) -> str:
    if not prediction.strip():
        return EMPTY
    return MATCH if prediction.strip() == reference.strip() else MISMATCH


def f_beta(precision: float, recall: float, beta: float = 0.5) -> float:
    b2 = beta * beta
    denominator = b2 * precision + recall
    return (1 + b2) * precision * recall / denominator if denominator else 0.0


def stats(outcomes: Sequence[str], recall_denominator: int | None = None) -> dict:
    matches = sum(o == MATCH for o in outcomes)
    mismatches = sum(o == MISMATCH for o in outcomes)
    count = len(outcomes) if recall_denominator is None else recall_denominator
    precision = matches / (matches + mismatches) if matches + mismatches else 0.0
    recall = matches / count if count else 0.0
    return {"count": count, "matches": matches, "mismatches": mismatches,
            "precision": precision, "recall": recall, "f05": f_beta(precision, recall, BETA)}


def evaluate(reference: pd.DataFrame, predictions: Sequence[str], gender: str,
             min_words: int | None = None, max_words: int | None = None,
             full_set_recall: bool = False) -> dict:
    """``{"overall": {...}, "<label>": {...}, ...}``, labels in GateEval's order."""
    if gender not in GENDER_COLUMN:
        raise GenderMTError(f"gender must be one of {list(GENDER_COLUMN)}, not {gender!r}")
    if len(predictions) != len(reference):
        raise GenderMTError(f"{len(predictions)} outputs for {len(reference)} reference rows: "
                            "give one output per row of the TSV (dev and test together, in "
                            "file order; a blank line where the rewriter gave none)")
    column = GENDER_COLUMN[gender]
    outcomes = [outcome(p, r) for p, r in zip(predictions, reference[column], strict=True)]
    lengths = [len(s.strip().split()) for s in reference["source"]]
    keep = [(max_words is None or n <= max_words) and (min_words is None or n >= min_words)
            for n in lengths]
    result = {"overall": stats([o for o, k in zip(outcomes, keep, strict=True) if k],
                               len(outcomes) if full_set_recall else None)}
    labels = reference["label_list"]
    present = {label for row in labels for label in row}
    order = [c for c in CATEGORY_ORDER if c in present] + sorted(present - set(CATEGORY_ORDER))
    for label in order:
        has = [label in row for row in labels]
        kept = [o for o, h, k in zip(outcomes, has, keep, strict=True) if h and k]
        result[label] = stats(kept, sum(has) if full_set_recall else None)
    return result
