"""ConGA's explorer (gendermt.benchmarks.conga.explorer): every sentence with each system's
output and its entities as ConGA read them, on per-sentence logs in the scoring stage's format
(sentences/<system>/<prompt>.csv, columns as the default run writes them)."""

import pandas as pd

from gendermt.benchmarks.conga.explorer import read

from ...explorer_support import listed, page_rows

TAGGED = "My sister <F1> told me <A2> that she <F1> was tired."
DATA = pd.DataFrame({
    "item_id": ["sample-001"], "row": [1], "src_lang": "en", "tgt_lang": "it",
    "source": ["My sister told me that she was tired."], "source_tagged": [TAGGED],
    "reference": ["Mia sorella mi ha detto che era stanca."]})
COUNTS = ["match_m", "match_f", "error_m_to_f", "error_f_to_m", "bias_a_to_m", "bias_a_to_f",
          "unmatched_source", "unmatched_target"]


def sentences(system, status, counts, entities, annotation, hypothesis):
    row = {"system": system, "prompt": "baseline", "item_id": "sample-001", "status": status,
           "annotation_source": "token-table:x" if annotation else None,
           **dict(zip(COUNTS, counts, strict=True)), "entities": entities,
           "source_tagged": TAGGED, "annotation": annotation, "hypothesis": hypothesis}
    return pd.DataFrame([row])


def test_every_sentence_with_each_output_and_its_entities(tmp_path):
    data_path = tmp_path / "data.parquet"
    DATA.to_parquet(data_path)
    logs = {
        "conga-oracle-first": sentences(
            "conga-oracle-first", "annotated", [0, 1, 0, 0, 0, 0, 1, 0],
            "F1→F match_f; A2→∅ unmatched_source",
            "Mia <F1> sorella <F1> mi ha detto che era stanca <F1>.",
            "Mia sorella mi ha detto che era stanca."),
        "wrong": sentences(
            "wrong", "annotated", [0, 0, 0, 1, 1, 0, 0, 0], "F1→M error_f_to_m; A2→M bias_a_to_m",
            "Mio <M1> fratello <M1> mi <M2> ha detto …", "Mio fratello mi ha detto …"),
        "copy-source": sentences("copy-source", "unannotated", [None] * 8, None, None,
                                 "My sister told me that she was tired."),
    }
    runs = []
    for system, frame in logs.items():
        path = tmp_path / f"{system}.csv"
        frame.to_csv(path, index=False)
        runs.append({"system": system, "prompt": "baseline", "path": str(path)})
    page, rows = page_rows(read(runs, str(data_path), list(logs)), tmp_path)
    listed(page, rows, list(logs), ["baseline"])
    (row,) = rows
    assert row["gold"] == "F, A" and row["texts"] == {"tagged": TAGGED}
    first = row["outputs"]["conga-oracle-first"]
    assert first["read"] == "match" and first["correct"] is True
    assert "F1→F match_f" in first["evidence"] and "Mia <F1> sorella" in first["evidence"]
    assert row["outputs"]["wrong"]["read"] == "gender error, A→M"
    assert row["outputs"]["wrong"]["correct"] is False
    assert row["outputs"]["copy-source"] == {
        "text": "My sister told me that she was tired.", "read": "unannotated",
        "correct": None, "evidence": ""}
