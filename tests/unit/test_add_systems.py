"""`add_systems:` (issue 53): systems appended to every benchmark's `systems:` list, where an
overlay's list would replace the default's; declared in the schema, which still rejects
unknown keys and bad values."""

import copy

import pytest

from gendermt.config import add_systems
from gendermt.config.checks import check_schema
from gendermt.config.files import read_config
from gendermt.core import registry
from gendermt.core.errors import GenderMTError

from ..conftest import ROOT

SCHEMA = registry.config_schema(ROOT / "workflow" / "schemas" / "config.schema.yaml")


@pytest.fixture(scope="module")
def default():
    return read_config(ROOT / "config" / "config.yaml")


def with_added(default, added):
    config = copy.deepcopy(default)
    config["systems"]["my-llm"] = {"backend": "copy-source"}
    config["add_systems"] = added
    return config


def test_appends_to_every_benchmarks_list_keeping_the_defaults(default):
    config = add_systems.apply(with_added(default, ["my-llm", "copy-source"]))
    for name, spec in config["benchmarks"].items():
        before = default["benchmarks"][name]["systems"]
        assert spec["systems"][:len(before)] == before, name
        assert spec["systems"].count("my-llm") == 1 and spec["systems"].count("copy-source") == 1
    # copy-source already ran FairTranslate: it keeps its place, not added twice
    assert config["benchmarks"]["fairtranslate"]["systems"] == \
        default["benchmarks"]["fairtranslate"]["systems"] + ["my-llm"]
    assert add_systems.apply(copy.deepcopy(config)) == config  # once, whatever the calls


def test_a_system_not_defined_is_one_line_naming_it(default):
    config = with_added(default, ["nope"])
    with pytest.raises(GenderMTError, match=r"add_systems: 'nope' is not a configured system"):
        add_systems.apply(config)


def test_the_schema_takes_a_list_of_names(default):
    check_schema(with_added(default, ["my-llm"]), SCHEMA)


@pytest.mark.parametrize("bad, where", [("my-llm", "add_systems"), (["bad name"], "add_systems"),
                                        (["my-llm", "my-llm"], "add_systems"),
                                        ([3], "add_systems")])
def test_the_schema_rejects_bad_values(default, bad, where):
    with pytest.raises(GenderMTError, match=where):
        check_schema(with_added(default, bad), SCHEMA)


def test_unknown_top_level_keys_are_still_rejected(default):
    config = with_added(default, ["my-llm"])
    config["add_system"] = ["my-llm"]
    with pytest.raises(GenderMTError, match="add_system"):
        check_schema(config, SCHEMA)


def test_the_workflows_start_up_applies_it_before_anything_reads_a_list(default):
    from gendermt.workflow import startup

    config = with_added(default, ["my-llm"])
    startup.check_config_and_schema(config, [], str(ROOT), None)
    assert all(spec["systems"][-1] == "my-llm" for spec in config["benchmarks"].values())
