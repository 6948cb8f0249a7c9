"""A stage's table is checked where the stage writes it (gendermt.data.stage_tables): a data stage
that leaves out a column the generic stages read fails with one line naming the benchmark,
the stage, the file and the column, and writes nothing."""

from __future__ import annotations

import pandas as pd
import pytest

from gendermt.core.contract import DATA_COLUMNS
from gendermt.core.errors import GenderMTError
from gendermt.core.registry import data_columns
from gendermt.data.stage_tables import check_table, write_data_table

from ..conftest import ROOT

GOOD = {"item_id": ["1", "2"], "source": ["a", "b"], "src_lang": ["en", "en"],
        "tgt_lang": ["fr", "fr"], "reference": ["x", "y"]}


def test_a_data_stage_without_src_lang_is_named_in_one_line(tmp_path):
    path = tmp_path / "gate" / "data.parquet"
    frame = pd.DataFrame({k: v for k, v in GOOD.items() if k != "src_lang"})
    with pytest.raises(GenderMTError) as caught:
        write_data_table("gate", path, frame)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith("gate data stage: data.parquet (")
    assert "has no column 'src_lang'" in message
    assert not path.exists()  # nothing written


def test_a_column_of_the_wrong_kind_is_named(tmp_path):
    frame = pd.DataFrame({**GOOD, "item_id": [1, 2]})
    with pytest.raises(GenderMTError, match="column 'item_id' is not string"):
        check_table("conga", "data", tmp_path / "data.parquet", frame, DATA_COLUMNS)
    frame = pd.DataFrame({**GOOD, "tgt_lang": ["fr", None]})
    with pytest.raises(GenderMTError, match="column 'tgt_lang' is not string"):
        check_table("conga", "data", tmp_path / "data.parquet", frame, DATA_COLUMNS)


def test_a_good_table_is_written(tmp_path):
    path = tmp_path / "data.parquet"
    write_data_table("neogate-flores", path, pd.DataFrame(GOOD))
    assert pd.read_parquet(path).columns.tolist() == list(GOOD)


def test_a_contract_adds_its_own_columns():
    assert data_columns("neogate-flores") == dict(DATA_COLUMNS)
    # the columns a subset may use are required too (issue 51)
    assert data_columns("gate") == {**DATA_COLUMNS, "language": "any",
                                    "requested_gender": "any", "data_split": "any"}


def test_every_data_stage_writes_through_the_check():
    """Every benchmark package writes its data.parquet with write_data_table."""
    for path in sorted((ROOT / "src/gendermt/benchmarks").glob("*/data.py")):
        assert "write_data_table(" in path.read_text(encoding="utf-8"), path
