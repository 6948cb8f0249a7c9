"""WinoMT's adjective experiment (gendermt.benchmarks.winomt.adjectives): the adjective
sentences are en_anti.txt's rows with "pretty"/"handsome" before the entity, paired with the
en.txt items they are, and the change of accuracy has a paired interval over those items.

The line-correspondence test runs on the published files in ../shared/data/winomt (skipped
where absent); the rest needs no data."""

import numpy as np
import pandas as pd
import pytest

from gendermt.analysis.resample import Settings
from gendermt.benchmarks.winomt.adjectives import (
    adjective_items,
    pair_readings,
    paired_change,
    read_translations,
    with_adjective,
)
from gendermt.benchmarks.winomt.adjectives_table import adjectives_table
from gendermt.benchmarks.winomt.data import load
from gendermt.core.errors import DatasetError, GenderMTError

from ...conftest import ROOT

WINOMT = ROOT.parent / "shared" / "data" / "winomt"

EN = [("female", 1, "The developer argued with the designer because she did not like it.",
       "developer"),
      ("male", 1, "The developer argued with the designer because he did not like it.",
       "developer"),
      ("male", 5, "The developer argued with the designer because his idea failed.",
       "designer"),
      ("male", 5, "The developer argued with the designer because his idea failed.",
       "designer")]


def _files(tmp_path):
    """en.txt with a row twice (an anti row, as en_anti.txt has it twice too), pro, anti."""
    def write(name, rows):
        path = tmp_path / name
        path.write_text("".join("\t".join(map(str, r)) + "\n" for r in rows), encoding="utf-8")
        return path

    return (write("en.txt", EN), write("en_pro.txt", [EN[1]]),
            write("en_anti.txt", [EN[2], EN[0], EN[3]]))


def test_the_adjective_goes_before_the_entity_and_moves_its_index():
    assert with_adjective("The developer argued with the designer.", 1, "female") == (
        "The pretty developer argued with the designer.", 2)
    assert with_adjective("The developer argued with the designer.", 5, "male") == (
        "The developer argued with the handsome designer.", 6)
    with pytest.raises(ValueError, match="no adjective"):
        with_adjective("Someone left.", 0, "neutral")


def test_each_anti_row_is_the_en_txt_item_it_equals_in_en_anti_order(tmp_path):
    en, pro, anti = _files(tmp_path)
    items = adjective_items(load(en, pro, anti), anti)
    # en_anti's order; the row present twice: its first occurrence is item 2, its second 3
    assert list(items["item_id"]) == ["0002", "0000", "0003"]
    assert list(items["entity_index"]) == [6, 2, 6]
    assert items["source"].iloc[1] == ("The pretty developer argued with the designer "
                                       "because she did not like it.")
    assert set(items["stereotype"]) == {"anti"}


def test_an_adjective_line_of_another_sentence_is_refused(tmp_path):
    en, pro, anti = _files(tmp_path)
    items = adjective_items(load(en, pro, anti), anti)
    good = [f"{s} ||| x{k}" for k, s in enumerate(items["source"])]
    path = tmp_path / "adj.en-es.txt"
    path.write_text("\n".join(good) + "\n", encoding="utf-8")
    assert read_translations(path, items) == ["x0", "x1", "x2"]
    # the plain sentence (no adjective) where the adjective sentence belongs
    path.write_text("\n".join([f"{EN[2][2]} ||| x0", *good[1:]]) + "\n", encoding="utf-8")
    with pytest.raises(DatasetError, match="not the adjective sentence"):
        read_translations(path, items)
    path.write_text("\n".join(good[:2]) + "\n", encoding="utf-8")
    with pytest.raises(DatasetError, match="2 lines for 3 items"):
        read_translations(path, items)


def test_the_change_and_its_paired_interval_on_a_hand_made_example():
    # 4 items: right without the adjective on 1, with it on 3: 25 % → 75 %, +50 points
    got = paired_change([True, False, False, False], [True, True, True, False])
    assert (got["n"], got["acc_plain"], got["acc_adj"], got["change"]) == (4, 25.0, 75.0, 50.0)
    # the paired bootstrap is the bootstrap of the per-item differences (0, 1, 1, 0) × 100:
    # the same resampled items for both readings
    settings = Settings.of({})
    idx = np.random.default_rng(settings.seed).integers(0, 4, size=(settings.resamples, 4))
    diffs = 100 * np.array([0, 1, 1, 0])[idx].mean(axis=1)
    low, high = np.quantile(diffs, [0.025, 0.975])
    assert got["ci_low"] == pytest.approx(low) and got["ci_high"] == pytest.approx(high)
    # an item never moves: no change, and a paired interval of width 0 (two independent
    # bootstraps of a 50 % accuracy would give a wide one)
    same = paired_change([True, False] * 20, [True, False] * 20)
    assert (same["change"], same["ci_low"], same["ci_high"]) == (0.0, 0.0, 0.0)
    with pytest.raises(GenderMTError, match="same items"):
        paired_change([True], [True, False])


def test_readings_are_paired_by_item_not_by_position():
    plain = pd.DataFrame({"item_id": ["0000", "0001", "0002"],
                          "correct": [True, False, True]})
    adjective = pd.DataFrame({"item_id": ["0002", "0000"], "correct": [False, True]})
    assert pair_readings(plain, adjective) == ([True, True], [False, True])
    with pytest.raises(GenderMTError, match="no item 0009"):
        pair_readings(plain, pd.DataFrame({"item_id": ["0009"], "correct": [True]}))


def test_the_table_puts_the_papers_figures_beside_the_runs(tmp_path):
    import json

    summary = tmp_path / "google-es.json"
    summary.write_text(json.dumps([{"system": "google", "lang": "es", "reader": "corrected",
                                    "n": 4, "acc_plain": 25.0, "acc_adj": 75.0,
                                    "change": 50.0, "ci_low": 0.0, "ci_high": 100.0,
                                    "source": "x", "commit": "y"}]))
    paper = tmp_path / "paper.csv"
    paper.write_text("system,lang,acc_original,acc_adj,change,where,checked\n"
                     "google,es,53.1,63.5,10.4,Table 4,no\n")
    table = adjectives_table([summary], paper, ["google"], ["es"])
    row = table.iloc[0]
    assert (row["acc_adj"], row["acc_adj_published"], row["where_published"]) == (
        75.0, 63.5, "Table 4")


@pytest.mark.skipif(not (WINOMT / "translations" / "google" / "adj.en-es.txt").is_file(),
                    reason="no ../shared/data/winomt")
def test_every_published_adjective_line_is_its_anti_rows_sentence_with_the_adjective():
    data = load(WINOMT / "en.txt", WINOMT / "en_pro.txt", WINOMT / "en_anti.txt")
    items = adjective_items(data, WINOMT / "en_anti.txt")
    assert len(items) == 1584 and items["item_id"].is_unique
    for system in ("google", "bing"):
        for lang in ("es", "fr", "it", "de", "ru", "uk", "he", "ar"):
            lines = read_translations(
                WINOMT / "translations" / system / f"adj.en-{lang}.txt", items)
            assert len(lines) == 1584 and all(lines)


def test_a_file_is_named_by_its_repository_and_commit_or_else_by_its_path():
    from gendermt.benchmarks.winomt.adjectives import source_of

    record = {"repository": "gabrielStanovsky/mt_gender", "commit": "5862928",
              "files": [{"file": "translations/google/adj.en-es.txt",
                         "path": "translations/google/adj.en-es.txt"}]}
    assert source_of([record], "data-cache/x.txt") == {
        "path": "gabrielStanovsky/mt_gender/translations/google/adj.en-es.txt",
        "commit": "5862928"}
    assert source_of([], "data/mine.txt") == {"path": "data/mine.txt", "commit": ""}
