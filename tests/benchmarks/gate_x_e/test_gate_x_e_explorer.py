"""GATE X-E's explorer (gendermt.benchmarks.gate_x_e.explorer): every tuple with each system's
rewrite, match or not, on per-tuple tables in the scoring stage's format
(rewrites/<system>/<prompt>.parquet, rows as the public study's)."""

import pandas as pd

from gendermt.benchmarks.gate_x_e.explorer import read

from ...explorer_support import listed, page_rows

TUPLES = [
    # tuple_id, item_id, category, original_gender, requested, source, original, reference
    ("tr-0001-neg-f", "tr-0001-neg", "Negative", "negative", "feminine",
     "Kız hasta görünüyordu.", "The girl appeared sick.", "The girl appeared sick."),
    ("tr-0002-f-m", "tr-0002-f", "Pronoun-Only", "feminine", "masculine",
     "O kitap okuyor.", "She is reading a book.", "He is reading a book."),
]
REWRITES = {"rule-rewriter": ["The girl appeared sick.", "He is reading a book."],
            "keep-original": ["The girl appeared sick.", "She is reading a book."]}


def test_every_tuple_with_each_rewrite_and_its_match(tmp_path):
    runs = []
    for system, rewrites in REWRITES.items():
        frame = pd.DataFrame(TUPLES, columns=[
            "tuple_id", "item_id", "category", "original_gender", "requested_gender",
            "source", "original", "reference"]).assign(
            instance_id=lambda f: f["item_id"].str[:7], language="tr",
            relaxed_reference=lambda f: f["reference"], rewrite=rewrites,
            answer=["none", "complete"])
        frame["match"] = frame["rewrite"] == frame["reference"]
        frame["relaxed_match"] = frame["match"]
        path = tmp_path / system / "step_by_step.parquet"
        path.parent.mkdir()
        frame.to_parquet(path)
        runs.append({"system": system, "prompt": "step_by_step", "path": str(path)})
    page, rows = page_rows(read(runs, list(REWRITES)), tmp_path)
    listed(page, rows, list(REWRITES), ["step_by_step"])
    assert [r["item_id"] for r in rows] == ["tr-0001-neg-f", "tr-0002-f-m"]
    pronoun = rows[1]
    assert pronoun["gold"] == "masculine" and pronoun["reference"] == "He is reading a book."
    assert pronoun["texts"] == {"original": "She is reading a book."}
    assert pronoun["groups"] == {"language": "tr", "category": "Pronoun-Only"}
    assert pronoun["outputs"]["rule-rewriter"]["read"] == "match"
    assert pronoun["outputs"]["keep-original"] == {
        "text": "She is reading a book.", "read": "no match", "correct": False,
        "evidence": "answer: complete"}
