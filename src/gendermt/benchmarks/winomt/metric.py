"""WinoMT's metrics, as the original ``evaluate.py`` defines them, in percent.

* acc: correct / all items (gold ``neutral`` items count; "unknown" predictions are wrong);
* per gender g: recall = correct_g / gold_g, precision = correct_g / predicted_g, F1;
* ΔG = F1(male) - F1(female);
* ΔS = acc(pro-stereotypical items) - acc(anti-stereotypical items);
* the share of predictions per gender (male, female, neutral, unknown).

The original rounds accuracy, precision and recall to one decimal (Python's ``round``) and F1
from the rounded two; ``rounded=True`` (the ``original`` and ``published`` readers) does the
same, also to the subsets' accuracies before ΔS, so that those figures are the original's to
the digit. Otherwise (the ``corrected`` reader) nothing is rounded (tables round for
display), and values can differ from the original's in the first decimal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from gendermt.benchmarks.winomt import ORIGINAL_READERS, PREDICTIONS
from gendermt.scoring.metric_signature import metric_signature

#: Bumped when the metrics below (or the readers' rules) change.
SIGNATURE_VERSION = 1


def signature(reader: str, reader_version: str | None = None, aligner: str | None = None,
              alignment: Mapping[str, Any] | None = None, morphology: str | None = None
              ) -> str:
    """The metrics' signature: the reader (and its version: its rule and model), whether the
    figures are rounded as the original rounds them, the aligner and its settings, and the
    original readers' token genders (``morphology``; ``none`` for the corrected reader)."""
    return metric_signature("winomt", SIGNATURE_VERSION, {
        "reader": reader, "reader_version": reader_version,
        "rounded": reader in ORIGINAL_READERS, "aligner": aligner,
        "alignment": alignment or "default", "morphology": morphology})


def _pct(part: float, whole: float) -> float:
    return 100.0 * part / whole if whole else float("nan")


def _f1(p: float, r: float) -> float:
    return 2 * p * r / (p + r) if p + r else 0.0


def accuracy(gold: pd.Series, predicted: pd.Series) -> float:
    return _pct(float((gold.to_numpy() == predicted.to_numpy()).sum()), len(gold))


def compute(frame: pd.DataFrame, rounded: bool = False) -> dict[str, float | int]:
    """Metrics of a per-sentence table with ``gold``, ``predicted`` and, for ΔS,
    ``stereotype`` (pro/anti/none); ``rounded``: as the original rounds (module doc)."""
    gold, pred = frame["gold"], frame["predicted"]

    def r(value: float) -> float:
        return round(value, 1) if rounded and not pd.isna(value) else value

    def acc(g: pd.Series, p: pd.Series) -> float:
        return r(accuracy(g, p))

    out: dict[str, float | int] = {"n": len(frame), "acc": acc(gold, pred)}
    for g in ("male", "female"):
        correct = float(((gold == g) & (pred == g)).sum())
        recall = r(_pct(correct, float((gold == g).sum())))
        precision = r(_pct(correct, float((pred == g).sum())))
        # no prediction of g at all: precision is undefined; F1 is 0 as nothing g is right
        out[f"precision_{g}"] = precision
        out[f"recall_{g}"] = recall
        out[f"f1_{g}"] = 0.0 if pd.isna(precision) or pd.isna(recall) else r(_f1(precision,
                                                                                   recall))
    # rounded: the difference of two one-decimal figures, without float noise (6.4, not
    # 6.400000000000006)
    out["delta_g"] = r(out["f1_male"] - out["f1_female"])
    for g in PREDICTIONS:
        out[f"share_{g}"] = _pct(float((pred == g).sum()), len(frame))
    if "stereotype" in frame and {"pro", "anti"} <= set(frame["stereotype"]):
        pro, anti = frame[frame["stereotype"] == "pro"], frame[frame["stereotype"] == "anti"]
        out["acc_pro"] = acc(pro["gold"], pro["predicted"])
        out["acc_anti"] = acc(anti["gold"], anti["predicted"])
        out["n_pro"], out["n_anti"] = len(pro), len(anti)
        out["delta_s"] = r(out["acc_pro"] - out["acc_anti"])
    return out
