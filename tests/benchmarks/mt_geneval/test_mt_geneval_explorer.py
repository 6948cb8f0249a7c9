"""MT-GenEval's explorer (gendermt.benchmarks.mt_geneval.explorer): every segment with each
system's output and the unique words of each gender found in it, on the scoring stage's own
per-segment decisions (evaluate_segments)."""

import pandas as pd

from gendermt.benchmarks.mt_geneval.evaluate import evaluate_segments
from gendermt.benchmarks.mt_geneval.explorer import read

from ...explorer_support import listed, page_rows

DATA = pd.DataFrame({
    "item_id": ["fr-test-cf-0001-m", "fr-test-cf-0001-f", "fr-test-ctx-0001"],
    "pair_id": ["fr-test-cf-0001", "fr-test-cf-0001", "fr-test-ctx-0001"],
    "set": ["counterfactual", "counterfactual", "contextual"],
    "gender": ["masculine", "feminine", "feminine"],
    "line": [1, 1, 1],
    "source": ["He worked as a nurse.", "She worked as a nurse.", "The nurse was late."],
    "context": ["", "", "My aunt is a nurse."],
    "source_with_context": ["He worked as a nurse.", "She worked as a nurse.",
                            "My aunt is a nurse. The nurse was late."],
    "reference": ["Il travaillait comme infirmier.", "Elle travaillait comme infirmière.",
                  "L'infirmière était en retard."],
    "counterfactual_reference": ["Elle travaillait comme infirmière.",
                                 "Il travaillait comme infirmier.",
                                 "L'infirmier était en retard."],
    "src_lang": "en", "tgt_lang": "fr", "split": "test"})
OUTPUTS = {
    "mt-geneval-oracle": DATA["reference"].tolist(),
    "always-male": ["Il travaillait comme infirmier.", "Il travaillait comme infirmier.",
                    "L'infirmier était en retard."],
}


def test_every_segment_with_the_words_found(tmp_path):
    data_path = tmp_path / "data.parquet"
    DATA.to_parquet(data_path)
    runs = []
    for system, hyps in OUTPUTS.items():
        path = tmp_path / f"{system}.parquet"
        evaluate_segments(DATA, hyps).to_parquet(path)
        runs.append({"system": system, "prompt": "baseline", "path": str(path)})
    page, rows = page_rows(read(runs, str(data_path), list(OUTPUTS)), tmp_path)
    listed(page, rows, list(OUTPUTS), ["baseline"])
    assert [r["item_id"] for r in rows] == sorted(DATA["item_id"])
    by_id = {r["item_id"]: r for r in rows}
    feminine = by_id["fr-test-cf-0001-f"]
    assert feminine["gold"] == "feminine" and feminine["groups"] == {
        "language": "fr", "set": "counterfactual"}
    assert feminine["reference"] == "Elle travaillait comme infirmière."
    assert feminine["outputs"]["mt-geneval-oracle"]["correct"] is True
    male = feminine["outputs"]["always-male"]
    assert male["correct"] is False and male["read"] == "other gender's words"
    assert male["evidence"] == "other: il infirmier"
    assert by_id["fr-test-ctx-0001"]["texts"]["context"] == "My aunt is a nurse."
