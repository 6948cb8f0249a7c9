"""WinoMT's comparison table: one row per system and language, the original's metrics."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from gendermt.io import write_table

COLUMNS = ["system", "lang", "n", "acc", "f1_male", "f1_female", "delta_g", "acc_pro",
           "acc_anti", "delta_s", "precision_male", "recall_male", "precision_female",
           "recall_female", "share_male", "share_female", "share_neutral", "share_unknown",
           "reader", "seconds"]


def collect(summaries: Sequence[str | Path], systems: Sequence[str], langs: Sequence[str]
            ) -> pd.DataFrame:
    """The summaries of every system × language, in config order."""
    rows = [json.loads(Path(p).read_text(encoding="utf-8")) for p in summaries]
    frame = pd.DataFrame(rows)
    frame["system"] = pd.Categorical(frame["system"], categories=list(systems), ordered=True)
    frame["lang"] = pd.Categorical(frame["lang"], categories=list(langs), ordered=True)
    frame = frame.sort_values(["lang", "system"]).reset_index(drop=True)
    for col in COLUMNS:
        if col not in frame:
            frame[col] = float("nan")
    frame["system"] = frame["system"].astype(str)
    frame["lang"] = frame["lang"].astype(str)
    return frame[COLUMNS]


def build_tables(summaries: Sequence[str | Path], csv: str | Path, md: str | Path,
                 systems: Sequence[str], langs: Sequence[str]) -> None:
    """Workflow stage: every ``gender/{system}/{lang}.json`` → ``tables/summary.{csv,md}``."""
    write_table(collect(summaries, systems, langs), csv, md, floatfmt=".1f")
