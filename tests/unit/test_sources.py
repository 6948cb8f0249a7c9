"""Configured data sources: missing ones stop the run naming the key and the path; their
identity (path, size, sha256) is memoised by (path, size, mtime); config files named without
the default must name their run; every report entry has its own label."""

import os

import pytest
import yaml

from gendermt.config.files import check_config_files
from gendermt.core.errors import GenderMTError
from gendermt.data.sources import Hasher, check_sources, configured_sources, identity, is_sample
from gendermt.workflow.run_record import summary

from ..conftest import ROOT

DEFAULT = yaml.safe_load((ROOT / "config" / "config.yaml").read_text(encoding="utf-8"))


def test_every_configured_source_of_the_default_is_found(monkeypatch):
    monkeypatch.chdir(ROOT)
    keys = {s.key for s in configured_sources(DEFAULT)}
    assert {"benchmarks.neogate.data.test", "benchmarks.neogate.data.dev",
            "benchmarks.neogate.paradigms.schwa.mapping", "benchmarks.gate-x-e.data.root",
            "benchmarks.fairtranslate.data.path", "benchmarks.gambit.validation.el",
            "benchmarks.gambit.detectors.lexicon.lexicons.fr"} <= keys
    check_sources(DEFAULT)  # all there
    found = configured_sources(DEFAULT)
    # the data the project ships (resources/); its prompt templates live in each benchmark's
    # folder (and are recorded with every input file, not as data)
    assert all(s.sample for s in found if not s.key.endswith(".templates"))
    assert all(s.path.startswith("src/gendermt/benchmarks/") for s in found
               if s.key.endswith(".templates"))


def test_a_missing_file_or_folder_names_its_key_and_path(monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    config = yaml.safe_load(yaml.safe_dump(DEFAULT))
    config["benchmarks"]["neogate"]["data"]["test"] = "data/neogate/Neo-GATE.tsv"
    config["benchmarks"]["gate"]["data"]["root"] = str(tmp_path / "no-such-folder")
    with pytest.raises(GenderMTError) as err:
        check_sources(config)
    text = str(err.value)
    assert "benchmarks.neogate.data.test: data/neogate/Neo-GATE.tsv does not exist" in text
    assert f"benchmarks.gate.data.root: {tmp_path / 'no-such-folder'} (a folder)" in text
    assert "dev" not in text  # only what is missing


def test_a_file_is_hashed_once_until_it_changes(tmp_path):
    data = tmp_path / "data.tsv"
    data.write_text("a\tb\n", encoding="utf-8")
    memo = tmp_path / "memo" / "sha256.json"
    first = Hasher(memo)
    before = identity([data], first)
    first.save()
    again = Hasher(memo)  # a new start-up reads the memo instead of the file
    assert identity([data], again) == before and again.hashed == 0
    stat = data.stat()
    data.write_text("a\tc\n", encoding="utf-8")  # same size, new content, old mtime
    os.utime(data, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    changed = identity([data], again)
    assert again.hashed == 1 and changed[0]["sha256"] != before[0]["sha256"]
    assert changed[0] == {"path": str(data), "size": 4, "sha256": changed[0]["sha256"]}


def test_samples_are_the_projects_resources(tmp_path):
    assert is_sample(ROOT / "resources" / "neogate" / "Neo-GATE.tsv")
    assert not is_sample(tmp_path / "Neo-GATE.tsv")


def test_config_files_without_the_default_must_name_their_run(tmp_path):
    named = [str(tmp_path / "mine.yaml")]
    with pytest.raises(GenderMTError) as err:
        check_config_files(named, {"benchmarks": {}}, ROOT)
    text = str(err.value)
    assert "--configfile config/config.yaml" in text and "run: mine" in text
    check_config_files(named, {"run": "mine"}, ROOT)  # a run of its own
    check_config_files([str(ROOT / "config" / "config.yaml"), *named], {}, ROOT)  # added
    check_config_files([], {}, ROOT)  # the embedded default


def test_summary_lists_sources_systems_and_config_files(monkeypatch):
    monkeypatch.chdir(ROOT)
    found = summary("default", ["config/config.yaml"], DEFAULT, ROOT)
    assert found["run"] == "default"
    assert found["config_files"][0]["path"] == "config/config.yaml"
    assert {s["key"] for s in found["sources"]} >= {"benchmarks.neogate.data.test"}
    assert all(s["sample"] for s in found["sources"] if s["data"])
    assert all(s["project_file"] for s in found["sources"])
    lexicon = next(s for s in found["sources"] if ".lexicons." in s["key"])
    assert not lexicon["data"] and not lexicon["sample"]  # the project's file, not a sample
    assert not any(s["key"].endswith(".templates") for s in found["sources"])
    systems = {s["system"]: s for s in found["systems"]}
    assert systems["oracle-male"]["benchmarks"] == ["fairtranslate", "neogate"]
    assert systems["gambit-mixed"]["sample"]
