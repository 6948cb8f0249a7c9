"""How far two detectors agree on the same translations (the offline lexicon as a
cross-check of the LLM judge, or the other way round).

For each run and each pair of detectors: the texts each one found the occupation in, the
(text, occupation) pairs both found, the share of those on which their labels agree, and
Cohen's kappa over the three labels. Undefined values (no pair found by both; a single label
on both sides, where kappa is 0/0) are left empty with a note saying why.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from gendermt.benchmarks.gambit.grape import load_assignments
from gendermt.benchmarks.gambit.labels import LABELS
from gendermt.data.io import write_table

COLUMNS = ["model", "system", "lang", "detector_a", "detector_b", "texts_a", "texts_b",
           "pairs_both", "pairs_only_a", "pairs_only_b", "label_agreement", "kappa", "note"]


def _labels(path: str | Path) -> pd.Series:
    return load_assignments(path).set_index(["text_id", "isco"])["label"]


def cohen_kappa(a: Sequence[str], b: Sequence[str]) -> float:
    """Cohen's kappa of two label sequences; NaN when chance agreement is 1 (one label)."""
    n = len(a)
    if n == 0:
        return math.nan
    observed = sum(x == y for x, y in zip(a, b, strict=True)) / n
    expected = sum((list(a).count(lab) / n) * (list(b).count(lab) / n) for lab in LABELS)
    return math.nan if expected >= 1 else (observed - expected) / (1 - expected)


def compare(a: pd.Series, b: pd.Series) -> dict:
    """Agreement of two detectors' labels, indexed by (text_id, isco)."""
    both = a.index.intersection(b.index)
    row = {"texts_a": a.index.get_level_values(0).nunique(),
           "texts_b": b.index.get_level_values(0).nunique(),
           "pairs_both": len(both), "pairs_only_a": len(a.index.difference(b.index)),
           "pairs_only_b": len(b.index.difference(a.index)),
           "label_agreement": None, "kappa": None, "note": ""}
    if not len(both):
        row["note"] = "no (text, occupation) pair found by both detectors"
        return row
    la, lb = a.loc[both].tolist(), b.loc[both].tolist()
    same = sum(x == y for x, y in zip(la, lb, strict=True))
    row["label_agreement"] = round(100 * same / len(both), 2)
    kappa = cohen_kappa(la, lb)
    if math.isnan(kappa):
        row["note"] = "kappa undefined: both detectors used a single, identical label"
    else:
        row["kappa"] = round(kappa, 4)
    return row


def write_agreement(runs: Sequence[dict], files: dict[str, Sequence[str | Path]],
                    csv: str | Path, md: str | Path) -> pd.DataFrame:
    """Workflow stage: every detector's assignments of every run → one agreement table.
    ``files`` maps each detector to its assignment files, in the order of ``runs``."""
    rows = []
    for i, run in enumerate(runs):
        for da, db in itertools.combinations(files, 2):
            a, b = _labels(files[da][i]), _labels(files[db][i])
            rows.append({"model": run["model"], "system": run["system"], "lang": run["lang"],
                         "detector_a": da, "detector_b": db, **compare(a, b)})
    table = pd.DataFrame(rows, columns=COLUMNS)
    write_table(table, csv, md)
    return table
