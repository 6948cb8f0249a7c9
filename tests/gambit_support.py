"""Inputs the GAMBIT detection tests build for themselves: a small ``isco.parquet`` in the
layout of the data stage (code, level, title, definition, tasks, included), taken from the
real ISCO-08 file in ../shared/data (datasets.md 4.2), and a small ``data.parquet``."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from .conftest import ROOT

ISCO_CSV = ROOT.parent / "shared" / "data" / "isco08" / "ISCO-08-EN.csv"
# The codes the tests' texts are about, a few neighbours, and one major group (level 1).
CODES = ["2", "2221", "2222", "2211", "2612", "2611", "5120", "3343", "2512", "2330", "2341",
         "2651", "4222", "4225", "5141", "8322"]


def write_isco(path: Path, codes: list[str] = CODES) -> Path:
    if not ISCO_CSV.is_file():
        # the judge tests' descriptions were calibrated against the ILO definitions; the
        # workflow test of the judge (test_workflow_gambit_judge.py) runs on the shipped excerpt
        pytest.skip("the real ISCO-08 file is not in ../shared/data/isco08")
    raw = pd.read_csv(ISCO_CSV, sep=";", dtype=str, keep_default_na=False)
    raw = raw[raw["ISCO 08 Code"].isin(codes)]
    frame = pd.DataFrame({"code": raw["ISCO 08 Code"], "level": raw["Level"].astype(int),
                          "title": raw["Title EN"].str.strip(),
                          "definition": raw["Definition"].str.strip(),
                          "tasks": raw["Tasks include"], "included": raw["Included occupations"]})
    assert len(frame) == len(codes), "the ISCO-08 test file lacks a code"
    frame.to_parquet(path, index=False)
    return path


def write_data(path: Path, rows: list[tuple[str, str, str]]) -> Path:
    """``rows``: (item_id, English source, isco)."""
    pd.DataFrame({"item_id": [r[0] for r in rows], "source": [r[1] for r in rows],
                  "src_lang": "en", "tgt_lang": "", "text_type": "short statement",
                  "isco": [r[2] for r in rows], "isco_title": ""}).to_parquet(path, index=False)
    return path
