"""A study's fixed, stratified, seeded subset of a benchmark's items (gendermt.data.subsets)."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from gendermt.core.errors import GenderMTError
from gendermt.data.subsets import allocate, apply, choose, describe


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
    from gendermt.workflow.run_record import summary

    from ..conftest import ROOT

    setting = {"size": 24, "seed": 32, "by": ["gold", "stereotype"]}
    cfg = {"benchmarks": {"winomt": {"systems": [], "subset": setting},
                          "gate": {"systems": []}}, "systems": {}}
    assert summary("x", [], cfg, ROOT)["subsets"] == {"winomt": setting}
    assert "subsets" not in summary("x", [], {"benchmarks": {"gate": {"systems": []}},
                                              "systems": {}}, ROOT)


def gate_x_e_like():
    """GATE X-E's shape: requests (one per instance × gender-marked original) and test tuples
    (two or three per request, each naming its request's item_id)."""
    items, tuples = [], []
    for i in range(20):
        lang = "tr" if i < 12 else "fi"
        category = "Negative" if i % 4 == 0 else "Pronoun-Only"
        originals = ["neg"] if category == "Negative" else ["f", "m"]
        for o in originals:
            item = f"{lang}-{i:04d}-{o}"
            items.append({"item_id": item, "instance_id": f"{lang}-{i:04d}", "language": lang,
                          "category": category})
            for g in "fmn" if o == "neg" else [g for g in "fmn" if g != o]:
                tuples.append({"tuple_id": f"{item}-{g}", "item_id": item})
    return pd.DataFrame(items), pd.DataFrame(tuples)


def test_a_following_table_keeps_exactly_the_tuples_of_the_kept_requests(tmp_path):
    items, tuples = gate_x_e_like()
    data_path, tuples_path = tmp_path / "data.parquet", tmp_path / "tuples.parquet"
    provenance = tmp_path / "data.json"
    items.to_parquet(data_path, index=False)
    tuples.to_parquet(tuples_path, index=False)
    provenance.write_text("{}")
    record = apply(data_path, provenance, {"size": 5, "seed": 32, "by": ["language", "category"],
                                           "unit": "instance_id"}, {"tuples": tuples_path})
    kept, kept_tuples = pd.read_parquet(data_path), pd.read_parquet(tuples_path)
    # whole instances: both originals of a positive one, and every tuple of each request
    assert kept["instance_id"].nunique() == 5
    assert kept.groupby("instance_id").size().to_dict() == {
        i: (1 if c == "Negative" else 2) for i, c in
        kept.drop_duplicates("instance_id")[["instance_id", "category"]].itertuples(index=False)}
    assert list(kept_tuples["tuple_id"]) == [t for t in tuples["tuple_id"]
                                             if t.rsplit("-", 1)[0] in set(kept["item_id"])]
    assert set(kept_tuples["item_id"]) == set(kept["item_id"])
    assert record["follow"] == {"tuples": {"rows": len(kept_tuples), "of_rows": len(tuples)}}
    assert json.loads(provenance.read_text())["subset"] == record
    assert describe(record) == (f"5 of 20 instance_ids; {len(kept)} of {len(items)} items; "
                                f"{len(kept_tuples)} of {len(tuples)} tuples (seed 32, "
                                "stratified by language, category)")


def test_a_following_table_of_other_items_is_refused_and_nothing_is_cut(tmp_path):
    items, tuples = gate_x_e_like()
    data_path, tuples_path = tmp_path / "data.parquet", tmp_path / "tuples.parquet"
    items.to_parquet(data_path, index=False)
    stray = pd.concat([tuples, pd.DataFrame([{"tuple_id": "x-n", "item_id": "hu-9999-f"}])])
    stray.to_parquet(tuples_path, index=False)
    (tmp_path / "data.json").write_text("{}")
    with pytest.raises(GenderMTError, match=r"names 1 item\(s\) that .*data\.parquet lacks, "
                                            r"e\.g\. \['hu-9999-f'\]"):
        apply(data_path, tmp_path / "data.json", {"size": 3, "seed": 1}, {"tuples": tuples_path})
    assert len(pd.read_parquet(data_path)) == len(items)
    assert len(pd.read_parquet(tuples_path)) == len(stray)
