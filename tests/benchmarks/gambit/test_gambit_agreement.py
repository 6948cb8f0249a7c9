"""Agreement between two GAMBIT detectors: pair counts, label agreement, Cohen's kappa
(checked against the textbook formula on a small table), undefined cases noted."""

import math

import pandas as pd
import pytest

from gendermt.benchmarks.gambit.agreement import cohen_kappa, compare, write_agreement


def _assignments(path, rows):
    pd.DataFrame(rows, columns=["text_id", "isco", "label"]).to_csv(path, index=False)
    return path


def test_kappa_textbook_example():
    # 2×2 table a=20 (M,M), b=5 (M,F), c=10 (F,M), d=15 (F,F): po = 0.7,
    # pe = 0.5·0.6 + 0.5·0.4 = 0.5, kappa = 0.4
    a = ["Masculine"] * 25 + ["Feminine"] * 25
    b = ["Masculine"] * 20 + ["Feminine"] * 5 + ["Masculine"] * 10 + ["Feminine"] * 15
    assert cohen_kappa(a, b) == pytest.approx(0.4)
    assert math.isnan(cohen_kappa(["Masculine"] * 3, ["Masculine"] * 3))
    assert math.isnan(cohen_kappa([], []))


def test_compare_counts_pairs_and_notes():
    a = pd.Series(["Masculine", "Feminine", "Not Clear"],
                  index=pd.MultiIndex.from_tuples([("t1", "2221"), ("t2", "2221"),
                                                   ("t3", "7111")]))
    b = pd.Series(["Masculine", "Masculine"],
                  index=pd.MultiIndex.from_tuples([("t1", "2221"), ("t2", "2221")]))
    row = compare(a, b)
    assert (row["pairs_both"], row["pairs_only_a"], row["pairs_only_b"]) == (2, 1, 0)
    assert row["texts_a"] == 3 and row["texts_b"] == 2
    assert row["label_agreement"] == 50.0
    empty = compare(a, pd.Series([], dtype=str, index=pd.MultiIndex.from_tuples(
        [], names=[None, None])))
    assert empty["label_agreement"] is None and "no (text, occupation) pair" in empty["note"]


def test_write_agreement(tmp_path):
    runs = [{"model": "m", "system": "s", "lang": "fr"}]
    files = {"lexicon": [_assignments(tmp_path / "a.csv", [["t1", "2221", "Feminine"],
                                                           ["t2", "2221", "Masculine"]])],
             "judge": [_assignments(tmp_path / "b.csv", [["t1", "2221", "Feminine"],
                                                         ["t2", "2221", "Masculine"]])]}
    table = write_agreement(runs, files, tmp_path / "agree.csv", tmp_path / "agree.md")
    row = table.iloc[0]
    assert (row.detector_a, row.detector_b) == ("lexicon", "judge")
    assert row.label_agreement == 100.0 and row.kappa == 1.0
    assert (tmp_path / "agree.md").read_text().startswith("|")
