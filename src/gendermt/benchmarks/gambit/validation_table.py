"""The paper's Table 1 from the validation rule's summaries: one row per detector × language
with occupation, gender and overall accuracy (percent) and how many texts it rests on."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from gendermt.data.io import write_table

COLUMNS = ["detector", "lang", "n", "occupation_accuracy", "gender_accuracy",
           "overall_accuracy", "n_no_detection"]


def write_validation_table(summaries: Sequence[str | Path], csv: str | Path,
                           md: str | Path) -> pd.DataFrame:
    """Workflow stage: ``validation/{detector}/{lang}.json`` files → ``tables/validation``."""
    rows = [json.loads(Path(p).read_text(encoding="utf-8")) for p in summaries]
    table = pd.DataFrame([{c: row.get(c) for c in COLUMNS} for row in rows], columns=COLUMNS)
    write_table(table, csv, md)
    return table
