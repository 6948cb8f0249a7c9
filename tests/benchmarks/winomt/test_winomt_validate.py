"""``gendermt winomt validate`` on a small synthetic labels file (tests/data/winomt_labels:
eight of Google's Spanish translations, labelled for this test, one label deliberately
wrong), never the project's real labels."""

import json
import math
from pathlib import Path

import pandas as pd
import pytest

from gendermt.benchmarks.winomt.cli import read_hypotheses
from gendermt.benchmarks.winomt.data import load
from gendermt.benchmarks.winomt.evaluate import predict
from gendermt.benchmarks.winomt.validation import (
    agreement,
    read_items,
    read_labels,
    wilson,
)
from gendermt.cli import main

ROOT = Path(__file__).resolve().parents[3]
LABELS = ROOT / "tests" / "data" / "winomt_labels"
WINOMT = ROOT.parent / "shared" / "data" / "winomt"
needs_winomt = pytest.mark.skipif(not WINOMT.is_dir(),
                                  reason="the shared WinoMT data (../shared/data/winomt) is "
                                         "absent")
HEADER = "lang\tsystem\titem_id\tentity\tsource\ttranslation\tlabel\tnote\n"


def _wilson(k, n, z=1.959963984540054):
    """The Wilson score interval from its formula (percent)."""
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return 100 * (centre - half), 100 * (centre + half)


def test_wilson_interval():
    for k, n in [(7, 8), (93, 100), (0, 10), (10, 10)]:
        assert wilson(k, n) == pytest.approx(_wilson(k, n), abs=1e-6)


def test_agreement_counts_unknown_as_not_found():
    labels = pd.DataFrame({"lang": ["es"] * 4, "system": ["google"] * 4,
                           "label": ["male", "female", "neutral", "not found"]})
    table = agreement(labels, {"corrected": ["male", "male", "neutral", "unknown"]})
    row = table.iloc[0]
    assert (row["n"], row["agree"], row["agreement"]) == (4, 3, 75.0)
    assert row["confusion"] == {"male": {"male": 1}, "female": {"male": 1},
                                "neutral": {"neutral": 1}, "not found": {"not found": 1}}
    assert (row["ci_low"], row["ci_high"]) == pytest.approx(_wilson(3, 4))


def test_an_empty_label_names_the_file_and_row(tmp_path):
    bad = tmp_path / "es.tsv"
    bad.write_text(HEADER + "es\tgoogle\t0000\tdeveloper\tThe developer.\tEl desarrollador."
                            "\tmale\tok\n"
                            "es\tgoogle\t0001\tdeveloper\tThe developer.\tEl desarrollador."
                            "\t\t\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"es\.tsv.*row 3.*empty label"):
        read_labels(bad)
    assert main(["winomt", "validate", "--labels", str(bad), "--data", "x", "--translations",
                 "y"]) == 2


def test_a_label_outside_the_four_is_an_error(tmp_path):
    bad = tmp_path / "es.tsv"
    bad.write_text(HEADER + "es\tgoogle\t0\td\ts\tt\tMale\t\n", encoding="utf-8")
    with pytest.raises(ValueError, match="row 2.*'Male'"):
        read_labels(bad)


@needs_winomt
def test_validate_prints_agreement_and_wilson_intervals(capsys):
    assert main(["winomt", "validate", "--labels", str(LABELS), "--data",
                 str(WINOMT / "en.txt"), "--translations", str(WINOMT / "translations"),
                 "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert set(result) == {"es"} and set(result["es"]) == {"corrected", "original",
                                                           "published"}
    corrected = result["es"]["corrected"]
    assert set(corrected) == {"n", "agree", "agreement", "ci_low", "ci_high", "confusion",
                              "n_sure", "agree_sure", "agreement_sure", "ci_low_sure",
                              "ci_high_sure"}
    # no row of the file is marked uncertain: the sure rows are every row
    assert (corrected["n_sure"], corrected["agree_sure"]) == (8, 7)
    # seven right: the three construction workers read from their head (trabajador, obrero),
    # alguien neutral; 0002's label is wrong on purpose
    assert (corrected["n"], corrected["agree"], corrected["agreement"]) == (8, 7, 87.5)
    assert (corrected["ci_low"], corrected["ci_high"]) == pytest.approx(_wilson(7, 8))
    assert corrected["confusion"] == {"male": {"male": 6}, "female": {"male": 1},
                                      "neutral": {"neutral": 1}}
    # mt_gender's code as it is now reads alguien as unknown ("not found")
    assert result["es"]["original"]["agree"] == 6
    assert result["es"]["original"]["confusion"]["neutral"] == {"not found": 1}


@needs_winomt
def test_labelled_items_are_read_as_the_full_run_reads_them():
    labels = read_labels(LABELS / "es.tsv")
    data = load(WINOMT / "en.txt")
    hyps = read_hypotheses(str(WINOMT / "translations" / "google" / "en-es.txt"),
                           data["source"].tolist())
    readings = read_items(labels, data, {("google", "es"): hyps}, ["corrected"])
    table, _ = predict(data, hyps, "es")
    full = dict(zip(table["item_id"], table["predicted"], strict=True))
    assert readings["corrected"] == [full[i] for i in labels["item_id"]]


@needs_winomt
def test_several_named_label_sets_each_get_their_rows(tmp_path, capsys):
    again = tmp_path / "again"
    again.mkdir()
    (again / "es.tsv").write_text((LABELS / "es.tsv").read_text(encoding="utf-8"),
                                  encoding="utf-8")
    table = tmp_path / "validation.csv"
    assert main(["winomt", "validate", "--labels", f"ours={LABELS}", "--labels",
                 f"again={again}", "--reader", "corrected", "--data", str(WINOMT / "en.txt"),
                 "--translations", str(WINOMT / "translations"), "--table", str(table),
                 "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    # several sets: a level per set's name, each as one set's JSON
    assert list(result) == ["ours", "again"]
    assert result["ours"]["es"]["corrected"]["agree"] == 7
    assert result["again"]["es"]["corrected"] == result["ours"]["es"]["corrected"]
    written = pd.read_csv(table)
    assert list(written["labels"]) == ["ours", "again"]
    assert list(written["agree"]) == [7, 7]


def test_several_label_sets_must_each_be_named_once(capsys):
    for labels in (["--labels", str(LABELS), "--labels", f"b={LABELS}"],
                   ["--labels", f"a={LABELS}", "--labels", f"a={LABELS}"],
                   ["--labels", f"Bad-Name={LABELS}"]):
        assert main(["winomt", "validate", *labels, "--data", "x", "--translations",
                     "y"]) == 2
        assert "--labels" in capsys.readouterr().err


@needs_winomt
def test_lang_keeps_only_that_languages_labels(capsys):
    # the synthetic file has Spanish only: asking for French finds no label (and reads no
    # translation: the folder "y" does not exist)
    assert main(["winomt", "validate", "--labels", str(LABELS), "--lang", "fr", "--data",
                 str(WINOMT / "en.txt"), "--translations", "y"]) == 2
    assert "no labels of fr" in capsys.readouterr().err
