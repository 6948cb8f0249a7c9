"""Issue 51 item 7: a subset's `by` and `unit` columns are checked at start-up against the
columns the benchmark's data table holds (its contract's `subset_columns` and the generic
ones), naming the config key, before any job runs; the data stage keeps the declaration
true (it fails when its table lacks a declared column)."""

from __future__ import annotations

import copy

import pandas as pd
import pytest
import yaml

from gendermt.config.checks import check_config
from gendermt.core import registry
from gendermt.core.contract import DATA_COLUMNS
from gendermt.core.errors import GenderMTError
from gendermt.core.registry import data_columns

from ..conftest import ROOT


@pytest.fixture(scope="module")
def default():
    return yaml.safe_load((ROOT / "config/config.yaml").read_text(encoding="utf-8"))


def with_subset(config, name, **subset):
    config = copy.deepcopy(config)
    config["benchmarks"][name]["subset"] = {"size": 8, "seed": 0, **subset}
    return config


@pytest.mark.parametrize("subset, key, column", [
    ({"by": ["gender", "nope"]}, "benchmarks.mt-geneval.subset.by", "nope"),
    ({"unit": "pair"}, "benchmarks.mt-geneval.subset.unit", "pair"),
])
def test_an_unknown_subset_column_stops_start_up_naming_the_key(default, subset, key, column):
    with pytest.raises(GenderMTError) as err:
        check_config(with_subset(default, "mt-geneval", **subset))
    message = str(err.value)
    assert message.startswith(f"{key}: no column {column!r} in mt-geneval's data"), message
    assert "pair_id" in message and "gender" in message and "\n" not in message


def test_the_known_subset_columns_pass(default):
    check_config(with_subset(default, "fairtranslate", by=["gender", "stereotype"]))
    check_config(with_subset(default, "mt-geneval", by=["gender"], unit="pair_id"))
    check_config(with_subset(default, "gate-x-e", by=["language"], unit="instance_id"))


def test_declared_subset_columns_are_required_of_the_data_table():
    for benchmark in registry.names():
        declared = registry.get(benchmark).subset_columns
        assert set(declared) <= set(data_columns(benchmark)), benchmark
    assert {"gold", "stereotype"} <= set(registry.get("winomt").subset_columns)
    from gendermt.data.stage_tables import write_data_table

    frame = pd.DataFrame({c: ["x"] for c in DATA_COLUMNS} | {"gold": ["male"]})
    with pytest.raises(GenderMTError, match="no column 'stereotype'"):
        write_data_table("winomt", "unused.parquet", frame)
