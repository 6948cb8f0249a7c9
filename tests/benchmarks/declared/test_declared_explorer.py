"""A declared benchmark's explorer (gendermt.benchmarks.declared.explorer): every segment with
each system's output and the gendered words found, on the scoring stage's own per-segment
decisions (evaluate_segments), here on word lists."""

import pandas as pd

from gendermt.benchmarks.declared.evaluate import evaluate_segments
from gendermt.benchmarks.declared.explorer import read

from ...explorer_support import listed, page_rows

DATA = pd.DataFrame({
    "item_id": ["p1-male-es", "p1-female-es"], "pair_id": ["p1-es", "p1-es"],
    "gender": ["male", "female"], "line": [1, 1],
    "source": ["My brother is a doctor.", "My sister is a doctor."],
    "reference": ["Mi hermano es médico.", "Mi hermana es médica."],
    "counterfactual_reference": ["Mi hermana es médica.", "Mi hermano es médico."],
    "words": ["hermano médico", "hermana médica"],
    "counterfactual_words": ["hermana médica", "hermano médico"],
    "src_lang": "en", "tgt_lang": "es"})
OUTPUTS = {"oracle": DATA["reference"].tolist(),
           "masculine": ["Mi hermano es médico.", "Mi hermana es médico."]}


def test_every_segment_with_the_words_found(tmp_path):
    data_path = tmp_path / "data.parquet"
    DATA.to_parquet(data_path)
    runs = []
    for system, hyps in OUTPUTS.items():
        path = tmp_path / f"{system}.parquet"
        evaluate_segments(DATA, hyps).to_parquet(path)
        runs.append({"system": system, "prompt": "translate", "path": str(path)})
    page, rows = page_rows(read(runs, str(data_path), "Doctors", list(OUTPUTS)), tmp_path)
    listed(page, rows, list(OUTPUTS), ["translate"])
    assert page["benchmark"] == "Doctors" and len(rows) == 2
    female = next(r for r in rows if r["item_id"] == "p1-female-es")
    assert female["source"] == "My sister is a doctor." and female["gold"] == "female"
    assert female["outputs"]["oracle"]["correct"] is True
    wrong = female["outputs"]["masculine"]
    assert wrong["correct"] is False and "other: médico" in wrong["evidence"]
