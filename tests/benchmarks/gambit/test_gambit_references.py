"""Tests for the GRAPE reference loaders (``gendermt.benchmarks.gambit.references``): the
shipped example files, the lookup at the most specific ISCO level, the variance filter of the
stereotype ratings, and broken files."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from gendermt.benchmarks.gambit.data import load
from gendermt.benchmarks.gambit.references import (
    female_share_for,
    load_labour,
    load_stereotypes,
    stereotype_by_code,
)
from gendermt.core.errors import DatasetError, MissingResourceError

ROOT = Path(__file__).resolve().parents[3]
REFS = ROOT / "resources" / "gambit" / "references"
SAMPLE = ROOT / "resources" / "gambit" / "sample" / "gambit-sample.jsonl"


@pytest.fixture(scope="module")
def sample_codes() -> set[str]:
    return set(load({"path": str(SAMPLE)})["isco"])


@pytest.fixture(scope="module")
def ratings() -> pd.DataFrame:
    return load_stereotypes(REFS / "stereotype-example.csv")


def _csv(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "ref.csv"
    path.write_text(text, encoding="utf-8")
    return path


# --------------------------------------------------------------------------- labour
@pytest.mark.parametrize(("lang", "country"), [("fr", "FR"), ("el", "EL")])
def test_labour_examples_cover_the_sample(lang, country, sample_codes):
    labour = load_labour(REFS / f"labour-example-{lang}.csv")
    assert list(labour.columns) == ["isco", "female_share", "country", "period", "source"]
    assert len(labour) == 18 and labour["isco"].str.len().eq(3).all()
    assert set(labour["country"]) == {country} and set(labour["period"]) == {"2023"}
    assert set(labour["source"]) == {"project-written example, not EU-LFS"}
    for code in sample_codes:
        share, matched = female_share_for(labour, code)
        assert matched == code[:3] and 0 <= share <= 1


def test_greek_example_has_a_zero_share_for_the_guard():
    labour = load_labour(REFS / "labour-example-el.csv")
    assert female_share_for(labour, "7111") == (0.0, "711")


def test_lookup_takes_the_most_specific_code(tmp_path):
    path = _csv(tmp_path, "isco,female_share\n2,0.5\n22,0.6\n222,0.8\n2222,0.97\n0110,0.1\n")
    labour = load_labour(path)
    assert labour["country"].tolist() == [""] * 5
    assert female_share_for(labour, "2222") == (0.97, "2222")
    assert female_share_for(labour, "2221") == (0.8, "222")
    assert female_share_for(labour, "2311") == (0.5, "2")
    assert female_share_for(labour, "0110") == (0.1, "0110")
    assert female_share_for(labour, "7111") is None
    assert female_share_for(labour, "222") == (0.8, "222")


@pytest.mark.parametrize(("text", "row", "column", "message"), [
    ("isco,female_share\n222,1.2\n", 1, "female_share", "outside \\[0, 1\\]"),
    ("isco,female_share\n222,-0.1\n", 1, "female_share", "outside"),
    ("isco,female_share\n222,0.5\n223,lots\n", 2, "female_share", "'lots' is not a number"),
    ("isco,female_share\n222,0.5\n223,\n", 2, "female_share", "not a number"),
    ("isco,female_share\n222,nan\n", 1, "female_share", "outside"),
    ("isco,female_share\n22x,0.5\n", 1, "isco", "not 1-4 digits"),
    ("isco,female_share\n22221,0.5\n", 1, "isco", "not 1-4 digits"),
    ("isco,female_share\n222,0.5\n223,0.4\n222,0.6\n", 3, "isco", "rows 1 and 3"),
    ("code,female_share\n222,0.5\n", None, "isco", "missing from the header"),
    ("isco,share\n222,0.5\n", None, "female_share", "missing from the header"),
])
def test_bad_labour_files(tmp_path, text, row, column, message):
    path = _csv(tmp_path, text)
    with pytest.raises(DatasetError, match=message) as err:
        load_labour(path)
    assert err.value.row == row and err.value.column == column
    assert str(path) in str(err.value)


def test_empty_and_missing_labour_files(tmp_path):
    with pytest.raises(DatasetError, match="empty"):
        load_labour(_csv(tmp_path, ""))
    with pytest.raises(DatasetError, match="no rows"):
        load_labour(_csv(tmp_path, "isco,female_share\n"))
    with pytest.raises(MissingResourceError):
        load_labour(tmp_path / "nope.csv")


# --------------------------------------------------------------------------- stereotypes
def test_stereotype_example(ratings, sample_codes):
    assert list(ratings.columns) == ["occupation", "rating", "isco", "source"]
    assert 30 <= len(ratings) <= 40
    assert set(ratings["isco"]) == sample_codes
    assert ratings["rating"].between(1, 7).all()
    assert (ratings["isco"].value_counts() >= 2).sum() >= 5
    assert set(ratings["source"]) == {"project-written example, not Shinar (1975)"}


def test_level_4_means_and_variance_filter(ratings):
    by_code = stereotype_by_code(ratings, 4).set_index("code")
    assert list(by_code.reset_index().columns) == ["code", "rating", "n", "variance", "kept"]
    assert len(by_code) == 20
    assert by_code.loc["2211", "n"] == 3
    assert by_code.loc["2211", "rating"] == pytest.approx((2.3 + 2.5 + 3.0) / 3)
    assert by_code.loc["2211", "variance"] == pytest.approx(pd.Series([2.3, 2.5, 3.0]).var())
    assert by_code.loc["5141", "variance"] == pytest.approx(pd.Series([5.9, 1.6]).var())
    assert not by_code.loc["5141", "kept"]
    assert by_code.loc["5120", "variance"] == pytest.approx(1.28)  # just under 1.5: kept
    assert by_code.loc["5120", "kept"]
    assert by_code.loc["2222", "n"] == 1 and by_code.loc["2222", "variance"] == 0.0
    assert by_code["kept"].sum() == 19


def test_level_3_aggregates_the_kept_unit_groups(ratings):
    by_group = stereotype_by_code(ratings, 3).set_index("code")
    assert "514" not in by_group.index  # its only unit group, 5141, was dropped
    assert by_group.loc["222", "rating"] == pytest.approx((6.4 + 6.8) / 2)
    assert by_group.loc["222", "n"] == 2
    assert by_group.loc["261", "variance"] == pytest.approx(pd.Series([2.7, 2.0]).var())
    assert by_group["kept"].all() and len(by_group) == 17


def test_filter_settings(tmp_path):
    path = _csv(tmp_path, "occupation,rating,isco\na,2,2221\nb,4,2221\nc,6,2222\nd,6.5,2222\n"
                          "e,1,2611\n")
    ratings = load_stereotypes(path)
    assert ratings["source"].tolist() == [""] * 5
    four = stereotype_by_code(ratings, 4).set_index("code")
    assert four.loc["2221", "variance"] == 2.0 and not four.loc["2221", "kept"]
    loose = stereotype_by_code(ratings, 4, max_variance=2.5).set_index("code")
    assert loose.loc["2221", "kept"]
    population = stereotype_by_code(ratings, 4, ddof=0).set_index("code")
    assert population.loc["2221", "variance"] == 1.0 and population.loc["2221", "kept"]
    three = stereotype_by_code(ratings, 3, max_variance=2.5).set_index("code")
    # 222: mean of 2221 (3.0) and 2222 (6.25): variance 5.28 >= 2.5, dropped at level 3
    assert three.loc["222", "rating"] == pytest.approx((3.0 + 6.25) / 2)
    assert not three.loc["222", "kept"] and three.loc["261", "kept"]
    with pytest.raises(ValueError, match="level 4 or 3"):
        stereotype_by_code(ratings, 2)


@pytest.mark.parametrize(("text", "row", "column", "message"), [
    ("occupation,rating,isco\nnurse,7.5,2221\n", 1, "rating", "outside \\[1, 7\\]"),
    ("occupation,rating,isco\nnurse,0,2221\n", 1, "rating", "outside"),
    ("occupation,rating,isco\nnurse,high,2221\n", 1, "rating", "not a number"),
    ("occupation,rating,isco\nnurse,6,222\n", 1, "isco", "not a 4-digit"),
    ("occupation,rating,isco\nnurse,6,2221\n,5,2221\n", 2, "occupation", "empty occupation"),
    ("occupation,rating,isco\nnurse,6,2221\nnurse,5,2222\n", 2, "occupation", "rows 1 and 2"),
    ("occupation,isco\nnurse,2221\n", None, "rating", "missing from the header"),
])
def test_bad_stereotype_files(tmp_path, text, row, column, message):
    path = _csv(tmp_path, text)
    with pytest.raises(DatasetError, match=message) as err:
        load_stereotypes(path)
    assert err.value.row == row and err.value.column == column
    assert str(path) in str(err.value)
