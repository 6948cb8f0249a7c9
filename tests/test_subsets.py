"""A study's fixed, stratified, seeded subset of a benchmark's items (gendermt.subsets)."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from gendermt.errors import GenderMTError
from gendermt.subsets import allocate, apply, choose, describe


def winomt_like(n_pro=40, n_anti=40, n_none=20) -> pd.DataFrame:
    rows = []
    for label, n in (("pro", n_pro), ("anti", n_anti), ("none", n_none)):
        for i in range(n):
            rows.append({"item_id": f"{label}{i:03d}", "stereotype": label,
                         "gold": "female" if i % 2 else "male"})
    return pd.DataFrame(rows)


FIRST_THREE = ["pro025", "pro027", "pro030"]


def test_allocation_is_proportional_by_largest_remainder_and_never_over_a_stratum():
    assert allocate([40, 40, 20], 10) == [4, 4, 2]
    assert allocate([50, 30, 20], 7) == [4, 2, 1]  # 3.5, 2.1, 1.4: the largest remainder
    assert sum(allocate([792, 790, 240, 794, 792, 240, 240], 24)) == 24
    assert allocate([3, 2], 10) == [3, 2]


def test_the_same_setting_gives_the_same_items_and_another_seed_others():
    data = winomt_like()
    first, record = choose(data, 10, 32, ["stereotype", "gold"])
    again, _ = choose(data.copy(), 10, 32, ["stereotype", "gold"])
    assert list(first["item_id"]) == list(again["item_id"])
    # numpy's PCG64 stream is the same on every platform: pinned, so a change shows
    assert list(first["item_id"])[:3] == FIRST_THREE
    other, _ = choose(data, 10, 33, ["stereotype", "gold"])
    assert list(other["item_id"]) != list(first["item_id"])
    # in proportion to the strata, in the data's order
    assert first.groupby("stereotype").size().to_dict() == {"anti": 4, "none": 2, "pro": 4}
    assert list(first.index) == list(range(10))
    assert list(first["item_id"]) == [i for i in data["item_id"] if i in set(first["item_id"])]
    assert (record["items"], record["of_items"], record["seed"]) == (10, 100, 32)
    assert sum(s["kept"] for s in record["strata"]) == 10


def test_a_unit_keeps_its_rows_together():
    data = pd.DataFrame({"item_id": [f"{p}-{g}" for p in range(30) for g in "mf"],
                         "pair_id": [p for p in range(30) for _ in "mf"],
                         "set": ["cf"] * 60})
    chosen, record = choose(data, 5, 7, ["set"], unit="pair_id")
    assert len(chosen) == 10 and chosen.groupby("pair_id").size().eq(2).all()
    assert describe(record) == "5 of 30 pair_ids; 10 of 60 items (seed 7, stratified by set)"


def test_all_keeps_everything_and_is_described_as_nothing():
    data = winomt_like()
    chosen, record = choose(data, "all", 0, ["stereotype"])
    assert len(chosen) == len(data) and describe(record) == ""


def test_an_unknown_column_names_it():
    with pytest.raises(GenderMTError, match="subset: no column 'language'"):
        choose(winomt_like(), 5, 0, ["language"])


def test_the_data_stage_step_rewrites_the_data_and_records_the_subset(tmp_path):
    data_path, provenance = tmp_path / "data.parquet", tmp_path / "data.json"
    winomt_like().to_parquet(data_path, index=False)
    provenance.write_text(json.dumps({"rows": 100}))
    assert apply(data_path, provenance, None) is None
    assert len(pd.read_parquet(data_path)) == 100
    record = apply(data_path, provenance, {"size": 12, "seed": 32, "by": ["stereotype"]})
    assert len(pd.read_parquet(data_path)) == 12
    found = json.loads(provenance.read_text())
    assert found["rows"] == 100 and found["subset"] == record
    assert describe(record) == "12 of 100 items (seed 32, stratified by stereotype)"


def test_the_run_summary_names_each_benchmarks_subset(tmp_path):
    from gendermt.runinfo import summary

    from .conftest import ROOT

    setting = {"size": 24, "seed": 32, "by": ["gold", "stereotype"]}
    cfg = {"benchmarks": {"winomt": {"systems": [], "subset": setting},
                          "gate": {"systems": []}}, "systems": {}}
    assert summary("x", [], cfg, ROOT)["subsets"] == {"winomt": setting}
    assert "subsets" not in summary("x", [], {"benchmarks": {"gate": {"systems": []}},
                                              "systems": {}}, ROOT)
