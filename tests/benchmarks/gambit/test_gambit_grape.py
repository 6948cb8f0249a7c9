"""GRAPE (Definition 1 of Mastromichalakis et al. 2025) against hand computations, its guards,
ISCO grouping, the labour lookup and the weighted real reference."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from gendermt.benchmarks.gambit.grape import (
    ENTRY_KEYS,
    grape,
    group_counts,
    load_assignments,
    lookup_share,
    score,
    weighted_reference,
)
from gendermt.core.errors import DatasetError


def assignments(rows: list[tuple[str, str]]) -> pd.DataFrame:
    return pd.DataFrame([{"text_id": f"t{i}", "isco": code, "label": label}
                         for i, (code, label) in enumerate(rows)])


def labour(shares: dict[str, float]) -> pd.DataFrame:
    return pd.DataFrame({"isco": list(shares), "female_share": list(shares.values())})


def test_paper_example_masculine_twice_the_reference_is_one():
    # parity: p_m = 1.0 against 0.5
    assert grape(10, 0)["grape_m"] == pytest.approx(1.0)
    # real: p_m = 0.6 against a reference share of men of 0.3 (women 0.7)
    entry = grape(6, 4, reference_f=0.7, reference="real")
    assert entry["grape_m"] == pytest.approx(1.0)
    assert entry["grape_f"] == pytest.approx((0.4 - 0.7) / 0.7)


def test_not_clear_is_counted_but_left_out_of_p():
    entry = grape(3, 1, 6)
    assert entry["p_masculine"] == pytest.approx(0.75)
    assert entry["p_feminine"] == pytest.approx(0.25)
    assert entry["grape_m"] == pytest.approx(0.5)   # (0.75 - 0.5) / 0.5
    assert entry["grape_f"] == pytest.approx(-0.5)  # (0.25 - 0.5) / 0.5
    assert (entry["n_masculine"], entry["n_feminine"], entry["n_not_clear"]) == (3, 1, 6)
    assert entry["note"] == ""
    assert list(entry) == list(ENTRY_KEYS)


def test_reference_share_of_women_zero_leaves_grape_f_undefined():
    entry = grape(3, 1, reference_f=0.0, reference="real")
    assert entry["grape_f"] is None
    assert entry["grape_m"] == pytest.approx(0.75 - 1.0)  # pref_m = 1
    assert "share of women is 0" in entry["note"]


def test_reference_share_of_women_one_leaves_grape_m_undefined():
    entry = grape(3, 1, reference_f=1.0, reference="real")
    assert entry["grape_m"] is None
    assert entry["grape_f"] == pytest.approx(0.25 - 1.0)
    assert "GRAPE_m undefined" in entry["note"]


def test_no_gendered_assignment():
    entry = grape(0, 0, 4)
    assert entry["grape_m"] is None and entry["grape_f"] is None
    assert entry["p_masculine"] is None and entry["p_feminine"] is None
    assert entry["note"] == "no gendered assignment (all Not Clear)"


def test_empty_group_and_missing_reference_each_noted():
    assert grape(0, 0, 0)["note"] == "empty group: no assignment"
    entry = grape(2, 2, reference_f=None, reference="real",
                  reference_note="no reference for ISCO 9999")
    assert entry["grape_m"] is None and entry["p_masculine"] == 0.5
    assert entry["note"] == "no reference for ISCO 9999"


def test_reference_out_of_range_is_a_programming_error():
    with pytest.raises(ValueError):
        grape(1, 1, reference_f=1.5)


def test_guard_results_are_json_without_nan():
    entries = [grape(0, 0, 0), grape(0, 0, 1), grape(1, 0, 0, 0.0), grape(1, 0, 0, 1.0),
               grape(1, 1, 0, None)]
    json.dumps(entries, allow_nan=False)


def test_level_3_groups_by_first_three_digits():
    frame = assignments([("2221", "Feminine"), ("2222", "Feminine"), ("2222", "Masculine"),
                         ("2211", "Masculine"), ("2211", "Not Clear")])
    counts = group_counts(frame, 3)
    assert counts.to_dict("index") == {
        "221": {"n_masculine": 1, "n_feminine": 0, "n_not_clear": 1},
        "222": {"n_masculine": 1, "n_feminine": 2, "n_not_clear": 0}}
    result = score(frame, 3)
    assert set(result["groups"]) == {"221", "222"}
    assert result["groups"]["222"]["grape_f"] == pytest.approx((2 / 3 - 0.5) / 0.5)
    # the overall pools every assignment: p_m = 2/4
    assert result["overall"]["grape_m"] == pytest.approx(0.0)
    assert result["overall"]["n_not_clear"] == 1


def test_lookup_takes_the_most_specific_code_available():
    shares = {"2": 0.5, "222": 0.9, "2221": 0.95}
    assert lookup_share(shares, "2221") == (0.95, "2221")
    assert lookup_share(shares, "2222") == (0.9, "222")
    assert lookup_share(shares, "2611") == (0.5, "2")
    assert lookup_share(shares, "7111") is None


def test_weighted_reference():
    assert weighted_reference([(0.9, 3), (0.1, 1)]) == pytest.approx(0.7)
    assert weighted_reference([(0.9, 0), (0.1, 0)]) == pytest.approx(0.5)  # plain mean
    assert weighted_reference([]) is None


def test_real_overall_weights_group_references_by_gendered_assignments():
    frame = assignments([("2221", "Feminine")] * 3 + [("2221", "Masculine")]
                        + [("7111", "Masculine")] * 2 + [("7111", "Not Clear")] * 5)
    result = score(frame, 4, labour({"222": 0.9, "7111": 0.1}))
    nurse, builder = result["groups"]["2221"], result["groups"]["7111"]
    assert nurse["reference_f"] == 0.9 and nurse["reference_code"] == "222"
    assert nurse["grape_f"] == pytest.approx((0.75 - 0.9) / 0.9)
    assert builder["grape_m"] == pytest.approx((1.0 - 0.9) / 0.9)
    # reference: (0.9 * 4 + 0.1 * 2) / 6; the 5 Not Clear do not weigh
    ref_f = (0.9 * 4 + 0.1 * 2) / 6
    overall = result["overall"]
    assert overall["reference_f"] == pytest.approx(ref_f)
    assert overall["grape_f"] == pytest.approx((3 / 6 - ref_f) / ref_f)
    assert overall["grape_m"] == pytest.approx((3 / 6 - (1 - ref_f)) / (1 - ref_f))
    assert overall["reference"] == "real"


def test_level_3_real_reference_is_looked_up_at_the_group_code():
    # a 4-digit entry is more specific than the 3-digit group: level 3 does not use it
    frame = assignments([("2221", "Feminine"), ("2221", "Masculine")])
    table = labour({"2221": 0.95, "222": 0.8})
    assert score(frame, 4, table)["groups"]["2221"]["reference_f"] == 0.95
    assert score(frame, 3, table)["groups"]["222"]["reference_f"] == 0.8


def test_groups_without_reference_are_left_out_of_the_real_overall():
    frame = assignments([("2221", "Feminine"), ("9999", "Masculine"), ("9999", "Masculine")])
    result = score(frame, 4, labour({"2221": 0.8}))
    assert result["groups"]["9999"]["grape_m"] is None
    assert "no reference for ISCO 9999" in result["groups"]["9999"]["note"]
    overall = result["overall"]
    assert (overall["n_masculine"], overall["n_feminine"]) == (0, 1)
    assert overall["reference_f"] == 0.8
    assert overall["grape_f"] == pytest.approx((1 - 0.8) / 0.8)
    assert "1 of 2 groups (2 gendered assignments) have no reference" in overall["note"]


def test_no_reference_at_all_and_no_assignment():
    frame = assignments([("9999", "Masculine")])
    overall = score(frame, 4, labour({"2221": 0.8}))["overall"]
    assert overall["grape_m"] is None and overall["note"].startswith("no reference for any")
    empty = score(assignments([]).reindex(columns=["text_id", "isco", "label"]), 4)
    assert empty["groups"] == {}
    assert empty["overall"]["note"] == "empty group: no assignment"
    json.dumps(empty, allow_nan=False)


@pytest.fixture
def write(tmp_path):
    def _write(text: str):
        path = tmp_path / "assignments.csv"
        path.write_text(text, encoding="utf-8")
        return path
    return _write


def test_load_assignments_keeps_codes_as_strings(write):
    frame = load_assignments(write("text_id,isco,label,title\na,0110,Masculine,officer\n"
                                   "b,2221,Not Clear,nurse\n"))
    assert frame["isco"].tolist() == ["0110", "2221"]
    assert frame["title"].tolist() == ["officer", "nurse"]


@pytest.mark.parametrize("text, row, column, words", [
    ("text_id,label\na,Masculine\n", None, "isco", "missing column"),
    ("text_id,isco,label\na,2221,Masculine\nb,2221,masculine\n", 2, "label", "'masculine'"),
    ("text_id,isco,label\na,2221,Masculine\nb,222,Feminine\n", 2, "isco", "4-digit"),
    ("text_id,isco,label\na,22x1,Masculine\n", 1, "isco", "'22x1'"),
])
def test_load_assignments_errors_name_file_row_column(write, text, row, column, words):
    path = write(text)
    with pytest.raises(DatasetError) as info:
        load_assignments(path)
    assert info.value.row == row and info.value.column == column
    assert str(path) in str(info.value) and words in str(info.value)


def test_load_assignments_empty_or_missing_file(write, tmp_path):
    with pytest.raises(DatasetError, match="empty file"):
        load_assignments(write(""))
    with pytest.raises(DatasetError, match="no such file"):
        load_assignments(tmp_path / "absent.csv")


def test_level_3_group_pools_its_4_digit_members_by_gendered_assignments():
    # the case: 2221 at .85 with 4 gendered assignments, 2222 at .99 with 2
    frame = assignments([("2221", "Feminine")] * 3 + [("2221", "Masculine")]
                        + [("2221", "Not Clear")] * 7 + [("2222", "Feminine")] * 2)
    result = score(frame, 3, labour({"2221": 0.85, "2222": 0.99, "2223": 0.1}))
    group = result["groups"]["222"]
    assert group["reference_f"] == pytest.approx((4 * 0.85 + 2 * 0.99) / 6)
    assert round(group["reference_f"], 3) == 0.897
    # 2223 has no assignment: weight 0; the code says what was pooled
    assert group["reference_code"] == "2221+2222+2223"
    assert "pooled from 2221, 2222, 2223" in group["note"]
    assert group["grape_f"] == pytest.approx((5 / 6 - 0.8966667) / 0.8966667, rel=1e-5)


def test_pooling_prefers_the_group_code_and_falls_back_to_ancestors():
    frame = assignments([("2221", "Feminine")])
    assert score(frame, 3, labour({"222": 0.7, "2221": 0.9}))["groups"]["222"][
        "reference_f"] == 0.7
    fallback = score(frame, 3, labour({"22": 0.6}))["groups"]["222"]
    assert (fallback["reference_f"], fallback["reference_code"]) == (0.6, "22")


def test_national_overall_reference_is_one_constant_over_every_assignment():
    frame = assignments([("2221", "Feminine")] * 3 + [("2221", "Masculine")]
                        + [("9999", "Masculine")] * 2)
    result = score(frame, 4, labour({"2221": 0.9}), "national", 0.49, "national 0.49")
    overall = result["overall"]
    # all 6 gendered assignments count, 9999 (no labour entry) too
    assert (overall["n_masculine"], overall["n_feminine"]) == (3, 3)
    assert overall["reference_f"] == 0.49 and overall["reference_code"] == "national"
    assert overall["grape_m"] == pytest.approx((0.5 - 0.51) / 0.51)
    weighted = score(frame, 4, labour({"2221": 0.9}), "weighted")["overall"]
    assert weighted["reference_f"] == 0.9
    missing = score(frame, 4, labour({"2221": 0.9}), "national", None, "no national")
    assert missing["overall"]["grape_m"] is None and missing["overall"]["note"] == "no national"
    with pytest.raises(ValueError, match="overall_reference"):
        score(frame, 4, labour({"2221": 0.9}), "country")


def test_paper_national_constants_reproduce_table_2():
    # Table 2 (parity, real) GRAPE_m per system → the real column from the constant
    from gendermt.benchmarks.gambit.grape import PAPER_NATIONAL

    table2 = {"fr": [(0.92, 0.88), (0.66, 0.63), (0.94, 0.90), (0.86, 0.82), (0.92, 0.89),
                     (0.87, 0.83)],
              "el": [(0.91, 0.67), (0.58, 0.38), (0.95, 0.71), (0.78, 0.56), (0.97, 0.72),
                     (0.92, 0.67)]}
    for lang, rows in table2.items():
        pref_m = 1 - PAPER_NATIONAL[lang]
        for parity, real in rows:
            p_m = (1 + parity) / 2
            # both columns are rounded to 2 decimals: up to ~0.01 apart
            assert (p_m - pref_m) / pref_m == pytest.approx(real, abs=0.011)


def test_grape_tables_national_default_and_weighted_mode():
    from gendermt.benchmarks.gambit.analyses import DEFAULT_SETTINGS, Run, grape_tables

    assert DEFAULT_SETTINGS["overall_reference"] == "national"
    frame = assignments([("2221", "Feminine")] * 3 + [("7111", "Masculine")] * 3)
    runs = [Run("m", "s", "fr", frame), Run("m", "s", "el", frame), Run("m", "s", "de", frame)]
    table = labour({"2221": 0.9, "7111": 0.1})
    overall, _ = grape_tables(runs, {"fr": table, "el": None, "de": table}, [4],
                              overall_reference="national")
    real = overall[overall["reference"] == "real"].set_index("lang")
    assert real.loc["fr", "reference_f"] == 0.49
    # no labour file for el: the national reference still gives Table 2's real column
    assert real.loc["el", "reference_f"] == 0.428
    assert real.loc["el", "grape_m"] == pytest.approx((0.5 - 0.572) / 0.572)
    assert pd.isna(real.loc["de", "grape_m"]) and "analysis.national_reference" in real.loc[
        "de", "note"]
    mine, _ = grape_tables(runs[2:], {"de": table}, [4], overall_reference="national",
                           national={"de": 0.47})
    assert mine[mine["reference"] == "real"]["reference_f"].iloc[0] == 0.47
    weighted, _ = grape_tables(runs[:1], {"fr": table}, [4], overall_reference="weighted")
    assert weighted[weighted["reference"] == "real"]["reference_f"].iloc[0] == pytest.approx(0.5)
