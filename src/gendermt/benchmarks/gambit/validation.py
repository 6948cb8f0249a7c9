"""How well a detector finds occupations and their gender (the paper's Table 1).

A validation file (the paper's appendix: text + ISCO code + title + description + gender) is
a CSV with columns ``text_id``, ``text``, ``isco``, ``title``, ``description``, ``gender``
(Masculine | Feminine | Not Clear), one labelled occupation per text. The detector runs over
the texts with the labelled code as the candidate, as for GAMBIT's sources. Per text:

* occupation correct: an assignment with the labelled code;
* gender correct: the label of that assignment (else of the text's first assignment) is the
  labelled gender; no detection counts as wrong, as in the paper;
* overall: both.

Accuracies are percentages over all texts of the file.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from gendermt.benchmarks.gambit.evaluate import read_isco, run_detector
from gendermt.benchmarks.gambit.labels import LABELS
from gendermt.core.errors import DatasetError
from gendermt.data.io import write_json, write_table

log = logging.getLogger(__name__)

REQUIRED = ("text_id", "text", "isco", "title", "description", "gender")


def load_validation(path: str | Path) -> pd.DataFrame:
    """Read and check a validation CSV (errors name the row and column)."""
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    missing = [c for c in REQUIRED if c not in frame.columns]
    if missing:
        raise DatasetError(path, f"missing column(s) {missing}")
    for row_no, row in enumerate(frame.itertuples(index=False), start=1):
        if row.gender not in LABELS:
            raise DatasetError(path, f"gender must be one of {list(LABELS)}, not "
                               f"{row.gender!r}", row=row_no, column="gender")
        if not (row.isco.isdigit() and len(row.isco) == 4):
            raise DatasetError(path, f"not a 4-digit ISCO-08 code: {row.isco!r}", row=row_no,
                               column="isco")
        if not row.text_id:
            raise DatasetError(path, "empty text_id", row=row_no, column="text_id")
    duplicated = frame["text_id"].duplicated()
    if duplicated.any():
        row_no = int(duplicated.to_numpy().nonzero()[0][0]) + 1
        raise DatasetError(path, f"text_id {frame['text_id'].iloc[row_no - 1]!r} repeated",
                           row=row_no, column="text_id")
    return frame


def score(gold: pd.DataFrame, assignments: pd.DataFrame) -> pd.DataFrame:
    """One row per validation text: what was detected and whether it is right."""
    by_text = {tid: group for tid, group in assignments.groupby("text_id", sort=False)}
    rows = []
    for row in gold.itertuples(index=False):
        found = by_text.get(row.text_id)
        if found is None or found.empty:
            predicted_codes, label = "", ""
        else:
            predicted_codes = "|".join(found["isco"].astype(str))
            match = found[found["isco"].astype(str) == row.isco]
            label = str((match if not match.empty else found)["label"].iloc[0])
        occupation_ok = row.isco in predicted_codes.split("|")
        gender_ok = bool(label) and label == row.gender
        rows.append({"text_id": row.text_id, "isco": row.isco, "gender": row.gender,
                     "predicted_isco": predicted_codes, "predicted_gender": label,
                     "occupation_correct": occupation_ok, "gender_correct": gender_ok,
                     "correct": occupation_ok and gender_ok})
    return pd.DataFrame(rows, columns=["text_id", "isco", "gender", "predicted_isco",
                                       "predicted_gender", "occupation_correct",
                                       "gender_correct", "correct"])


def _percent(series: pd.Series) -> float:
    return round(100.0 * float(series.mean()), 2) if len(series) else 0.0


def validate_file(path: str | Path, isco: str | Path | None, lang: str,
                  detector: dict[str, Any], output_csv: str | Path,
                  output_json: str | Path, cache_dir: str | Path | None = None,
                  systems: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Workflow stage: a validation CSV → per-text results (CSV) + Table 1's accuracies
    (JSON, percent). Returns the JSON's content."""
    gold = load_validation(path)
    texts = dict(zip(gold["text_id"], gold["text"], strict=True))
    candidates = {tid: [code] for tid, code in zip(gold["text_id"], gold["isco"],
                                                   strict=True)}
    data = pd.DataFrame({"item_id": gold["text_id"], "source": gold["text"],
                         "isco": gold["isco"]})
    assignments, dropped, settings = run_detector(texts, candidates, lang, detector,
                                                  read_isco(isco), data, cache_dir, systems)
    results = score(gold, assignments)
    summary = {"lang": lang, "detector": settings["name"], "n": len(results),
               "occupation_accuracy": _percent(results["occupation_correct"]),
               "gender_accuracy": _percent(results["gender_correct"]),
               "overall_accuracy": _percent(results["correct"]),
               "n_no_detection": int((results["predicted_isco"] == "").sum()),
               "dropped": {k: int(v) for k, v in sorted(dropped.items())},
               "settings": settings}
    write_table(results, output_csv)
    write_json(output_json, summary)
    log.info("%s (%s): occupation %.2f%%, gender %.2f%%, overall %.2f%% of %d texts", path,
             settings["name"], summary["occupation_accuracy"], summary["gender_accuracy"],
             summary["overall_accuracy"], summary["n"])
    return summary
