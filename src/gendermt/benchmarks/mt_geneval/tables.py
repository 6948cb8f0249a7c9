"""MT-GenEval's tables from per-segment decisions (``evaluate.evaluate_segments``) of each run.

Runs are records ``{"system", "prompt", "path"}``; nothing is parsed out of paths.
"""

from __future__ import annotations

import pandas as pd

from .metric import accuracy


def accuracy_rows(items: pd.DataFrame) -> list[dict]:
    """Per target language and set: the official accuracy (counterfactual: a pair is correct only
    when both translations are), per gender on the counterfactual set, the masculine−feminine
    gap, and n (pairs or items)."""
    rows = []
    for (lang, which), part in items.groupby(["tgt_lang", "set"], sort=True):
        pairs = part.drop_duplicates("pair_id")
        row = {"lang": lang, "set": which, "accuracy": accuracy(pairs["pair_correct"].tolist()),
               "accuracy_masculine": None, "accuracy_feminine": None, "accuracy_gap": None,
               "n": len(pairs)}
        if which == "counterfactual":
            m = accuracy(part.loc[part["gender"] == "masculine", "correct"].tolist())
            f = accuracy(part.loc[part["gender"] == "feminine", "correct"].tolist())
            row.update(accuracy_masculine=m, accuracy_feminine=f,
                       accuracy_gap=None if m is None or f is None else m - f)
        rows.append(row)
    return rows


def accuracy_table(runs: list[dict]) -> pd.DataFrame:
    """One row per system × prompt × language × set."""
    rows = []
    for run in runs:
        items = pd.read_parquet(run["path"])
        for row in accuracy_rows(items):
            rows.append({"system": run["system"], "prompt": run.get("prompt", ""), **row})
    columns = ["system", "prompt", "lang", "set", "accuracy", "accuracy_masculine",
               "accuracy_feminine", "accuracy_gap", "n"]
    return pd.DataFrame(rows, columns=columns)


def paper_layout(table: pd.DataFrame) -> pd.DataFrame:
    """The paper's layout: systems as rows, for each language the counterfactual feminine and
    masculine accuracies and the contextual accuracy, in percent."""
    if table.empty:
        return pd.DataFrame()
    cells = {}
    for rec in table.to_dict("records"):
        key = (rec["system"], rec["prompt"])
        cells.setdefault(key, {})
        if rec["set"] == "counterfactual":
            for g in ("feminine", "masculine"):
                value = rec[f"accuracy_{g}"]
                cells[key][(rec["lang"], f"counterfactual {g}")] = (
                    None if value is None else 100 * value)
        else:
            cells[key][(rec["lang"], "contextual")] = (
                None if rec["accuracy"] is None else 100 * rec["accuracy"])
    frame = pd.DataFrame.from_dict(cells, orient="index")
    frame = frame.reindex(sorted(frame.columns), axis=1)
    frame.index = pd.MultiIndex.from_tuples(frame.index, names=["system", "prompt"])
    frame.columns = [f"{lang} {what}" for lang, what in frame.columns]
    return frame.reset_index()
