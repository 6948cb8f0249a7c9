"""Values refused at once, with a short message (issue 31 item 11): a 5 MB `run:` value, a
temperature of 1e9; model outputs with `|` or line breaks keep Markdown tables whole; an
unset `api_key_env` of a system about to run stops the workflow before any job."""

import time
from pathlib import Path

import pandas as pd
import pytest
import yaml

from gendermt.config.checks import check_schema
from gendermt.core import registry
from gendermt.core.errors import GenderMTError
from gendermt.data.io import write_table

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def schema():
    return registry.config_schema(ROOT / "workflow/schemas/config.schema.yaml")


@pytest.fixture
def config():
    return yaml.safe_load((ROOT / "config/config.yaml").read_text())


def test_a_huge_run_name_is_refused_at_once_in_one_short_line(schema, config):
    config["run"] = "a" * 5_000_000 + "/x"
    t0 = time.monotonic()
    with pytest.raises(GenderMTError) as err:
        check_schema(config, schema)
    assert time.monotonic() - t0 < 30
    assert len(str(err.value)) < 300 and "5000002 characters" in str(err.value)
    assert str(err.value).startswith("run: ")


def test_an_absurd_temperature_is_refused(schema, config):
    name = next(iter(config["systems"]))
    config["systems"][name]["temperature"] = 1e9
    with pytest.raises(GenderMTError, match=rf"systems.{name}.temperature: .*maximum of 5"):
        check_schema(config, schema)


def test_pipes_and_line_breaks_keep_markdown_tables_whole(tmp_path):
    frame = pd.DataFrame({"system": ["a|b", "c"], "output": ["x | y\nz", "w"], "n": [1, 2]})
    write_table(frame, tmp_path / "t.csv", tmp_path / "t.md")
    lines = (tmp_path / "t.md").read_text().splitlines()
    assert len(lines) == 4  # header, rule, two rows
    assert all(line.count("|") - line.count("\\|") == 4 for line in lines)
    assert pd.read_csv(tmp_path / "t.csv")["output"][0] == "x | y\nz"  # the CSV as it is
