"""One system's outputs on one MT-GenEval set → per-item decisions with the words behind them."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from .metric import accuracy, decisions


def _words(values) -> list[str]:
    return [" ".join(sorted(v)) for v in values]


def evaluate_contextual(data: pd.DataFrame, hypotheses: Sequence[str]) -> pd.DataFrame:
    """Per item: the output, whether it is correct, and the words that decided it."""
    found = decisions(list(hypotheses), data["reference"].tolist(),
                      data["reference_flipped"].tolist())
    return pd.DataFrame({"item_id": data["item_id"], "line": data["line"],
                         "hypothesis": list(hypotheses),
                         "correct": [d.correct for d in found],
                         "correct_words": _words(d.correct_words for d in found),
                         "incorrect_words": _words(d.incorrect_words for d in found)})


def evaluate_counterfactual(data: pd.DataFrame, masculine: Sequence[str],
                            feminine: Sequence[str]) -> pd.DataFrame:
    """Per item: each gender's output against its reference (the other gender's reference as
    the counterfactual), and the item's decision: correct only when both are."""
    out = {"item_id": data["item_id"], "line": data["line"]}
    flags = {}
    for gender, other, hyps in (("masculine", "feminine", masculine),
                                ("feminine", "masculine", feminine)):
        found = decisions(list(hyps), data[f"reference_{gender}"].tolist(),
                          data[f"reference_{other}"].tolist())
        flags[gender] = [d.correct for d in found]
        out[f"hypothesis_{gender}"] = list(hyps)
        out[f"correct_{gender}"] = flags[gender]
        out[f"correct_words_{gender}"] = _words(d.correct_words for d in found)
        out[f"incorrect_words_{gender}"] = _words(d.incorrect_words for d in found)
    out["correct"] = [m and f for m, f in zip(flags["masculine"], flags["feminine"], strict=True)]
    return pd.DataFrame(out)


def summarise(items: pd.DataFrame) -> dict:
    """``accuracy`` (the official figure), per gender on the counterfactual set, and ``n``."""
    result = {"accuracy": accuracy(items["correct"].tolist())}
    if "correct_masculine" in items:
        m = accuracy(items["correct_masculine"].tolist())
        f = accuracy(items["correct_feminine"].tolist())
        result.update(accuracy_masculine=m, accuracy_feminine=f,
                      accuracy_gap=None if m is None or f is None else m - f)
    result["n"] = len(items)
    return result


def evaluate_segments(data: pd.DataFrame, hypotheses: Sequence[str]) -> pd.DataFrame:
    """One run over the workflow's segments (``data.segments``) → per segment: the decision and
    the words behind it, and ``pair_correct``: on the counterfactual set, whether both
    translations of the pair are correct (the official item decision); on the contextual set,
    the segment's own decision."""
    found = decisions(list(hypotheses), data["reference"].tolist(),
                      data["counterfactual_reference"].tolist())
    out = data[["item_id", "pair_id", "set", "gender", "tgt_lang", "line"]].copy()
    out["hypothesis"] = list(hypotheses)
    out["correct"] = [d.correct for d in found]
    out["correct_words"] = _words(d.correct_words for d in found)
    out["incorrect_words"] = _words(d.incorrect_words for d in found)
    out["pair_correct"] = out.groupby("pair_id")["correct"].transform("all")
    return out
