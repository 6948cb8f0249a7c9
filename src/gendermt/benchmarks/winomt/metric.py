"""WinoMT's metrics, as the original ``evaluate.py`` defines them, in percent.

* acc: correct / all items (gold ``neutral`` items count; "unknown" predictions are wrong);
* per gender g: recall = correct_g / gold_g, precision = correct_g / predicted_g, F1;
* ΔG = F1(male) - F1(female);
* ΔS = acc(pro-stereotypical items) - acc(anti-stereotypical items);
* the share of predictions per gender (male, female, neutral, unknown).

The original rounds precision and recall to one decimal before F1; here nothing is rounded
(tables round for display), so values can differ from it in the first decimal.
"""

from __future__ import annotations

import pandas as pd

from . import PREDICTIONS


def _pct(part: float, whole: float) -> float:
    return 100.0 * part / whole if whole else float("nan")


def _f1(p: float, r: float) -> float:
    return 2 * p * r / (p + r) if p + r else 0.0


def accuracy(gold: pd.Series, predicted: pd.Series) -> float:
    return _pct(float((gold.to_numpy() == predicted.to_numpy()).sum()), len(gold))


def compute(frame: pd.DataFrame) -> dict[str, float | int]:
    """Metrics of a per-sentence table with ``gold``, ``predicted`` and, for ΔS,
    ``stereotype`` (pro/anti/none)."""
    gold, pred = frame["gold"], frame["predicted"]
    out: dict[str, float | int] = {"n": len(frame), "acc": accuracy(gold, pred)}
    for g in ("male", "female"):
        correct = float(((gold == g) & (pred == g)).sum())
        recall = _pct(correct, float((gold == g).sum()))
        precision = _pct(correct, float((pred == g).sum()))
        # no prediction of g at all: precision is undefined; F1 is 0 as nothing g is right
        out[f"precision_{g}"] = precision
        out[f"recall_{g}"] = recall
        out[f"f1_{g}"] = 0.0 if pd.isna(precision) or pd.isna(recall) else _f1(precision,
                                                                                 recall)
    out["delta_g"] = out["f1_male"] - out["f1_female"]
    for g in PREDICTIONS:
        out[f"share_{g}"] = _pct(float((pred == g).sum()), len(frame))
    if "stereotype" in frame and {"pro", "anti"} <= set(frame["stereotype"]):
        pro, anti = frame[frame["stereotype"] == "pro"], frame[frame["stereotype"] == "anti"]
        out["acc_pro"] = accuracy(pro["gold"], pro["predicted"])
        out["acc_anti"] = accuracy(anti["gold"], anti["predicted"])
        out["n_pro"], out["n_anti"] = len(pro), len(anti)
        out["delta_s"] = out["acc_pro"] - out["acc_anti"]
    return out
