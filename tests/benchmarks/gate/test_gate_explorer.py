"""GATE's explorer (gendermt.benchmarks.gate.explorer): every row with each system's rewrite
and GateEval's outcome (match, mismatch, empty), read from the translation files and the data
table in the workflow's formats."""

import pandas as pd

from gendermt.benchmarks.gate.explorer import read
from gendermt.data.io import write_jsonl

from ...explorer_support import listed, page_rows

DATA = pd.DataFrame({
    "item_id": ["es-0001-f2m", "es-0001-m2f"], "language": "es", "row": [1, 1],
    "src_lang": "en", "tgt_lang": "es",
    "source": ["The doctor arrived late."] * 2,
    "original": ["La doctora llegó tarde.", "El doctor llegó tarde."],
    "requested_gender": ["masculine", "feminine"],
    "reference": ["El doctor llegó tarde.", "La doctora llegó tarde."],
    "labels": "SUBJ;PROF", "data_split": "test",
    "oracle_output": ["El doctor llegó tarde.", "La doctora llegó tarde."],
    "unchanged_output": ["La doctora llegó tarde.", "El doctor llegó tarde."]})
OUTPUTS = {"oracle-rewriter": ["El doctor llegó tarde.", "La doctora llegó tarde."],
           "declines": ["", "La doctora llegó tarde. "]}


def test_every_row_with_each_rewrite_and_its_outcome(tmp_path):
    data_path = tmp_path / "data.parquet"
    DATA.to_parquet(data_path)
    runs = []
    for system, hyps in OUTPUTS.items():
        path = tmp_path / f"{system}.jsonl"
        write_jsonl(path, [{"item_id": i, "key": "k", "raw": h, "hypothesis": h,
                            "seconds": 0.0, "finish_reason": "n/a"}
                           for i, h in zip(DATA["item_id"], hyps, strict=True)])
        runs.append({"system": system, "prompt": "rewrite", "path": str(path)})
    page, rows = page_rows(read(runs, str(data_path), list(OUTPUTS)), tmp_path)
    listed(page, rows, list(OUTPUTS), ["rewrite"])
    f2m, m2f = rows
    assert f2m["gold"] == "masculine" and f2m["texts"] == {"original": "La doctora llegó tarde."}
    assert f2m["outputs"]["oracle-rewriter"]["read"] == "match"
    # a blank output is GateEval's "empty": no verdict (it costs recall, not precision)
    assert f2m["outputs"]["declines"]["read"] == "empty"
    assert f2m["outputs"]["declines"]["correct"] is None
    assert m2f["outputs"]["declines"]["correct"] is True  # equal after stripping
