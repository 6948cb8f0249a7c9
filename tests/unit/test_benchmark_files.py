"""Benchmarks kept outside the project (`benchmarks.<name>.file`, issue 64): the block's path
found as every config path is (relative to the working directory), one-line errors naming the
key, and the benchmark registered in a process that includes it before reading the registry
(the workflow's common.smk does, first)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
import yaml

from gendermt.config.benchmark_files import ENV, file_of
from gendermt.core.errors import GenderMTError

from ..conftest import ROOT

SPEC = {"name": "mine", "label": "Mine", "languages": ["fr"], "genders": ["female", "male"],
        "data": {"format": "tsv", "path": "items.tsv", "language": "lang", "source": "src",
                 "reference": {"female": "ref_f", "male": "ref_m"}},
        "metrics": ["gendered_word_accuracy"],
        "fragments": {"task": "Translate into {tgt_lang_name}: {source}"},
        "templates": {"plain": {"version": 1, "user": ["task"]}}}
ITEMS = "lang\tsrc\tref_f\tref_m\nfr\tThe nurse left.\tElle est partie.\tIl est parti.\n"


def write(folder, spec=SPEC):
    folder.mkdir(parents=True)
    (folder / "benchmark.yaml").write_text(yaml.safe_dump(spec), encoding="utf-8")
    (folder / "items.tsv").write_text(ITEMS, encoding="utf-8")
    return folder / "benchmark.yaml"


def test_a_folder_or_its_file_relative_to_the_working_directory(tmp_path, monkeypatch):
    spec = write(tmp_path / "elsewhere" / "mine")
    monkeypatch.chdir(tmp_path / "elsewhere")
    assert file_of("mine", "mine") == spec
    assert file_of("mine", "mine/benchmark.yaml") == spec
    assert file_of("mine", str(spec)) == spec


@pytest.mark.parametrize("given, words", [
    ("nowhere/mine", ["benchmarks.mine.file:", "not found", "working directory"]),
    ("elsewhere", ["benchmarks.mine.file:", "not found"]),  # no benchmark.yaml in it
    ("elsewhere/other", ["benchmarks.mine.file:", "not in a folder named mine"]),
    ("", ["benchmarks.mine.file:", "not a path"]),
])
def test_one_line_naming_the_key(tmp_path, monkeypatch, given, words):
    write(tmp_path / "elsewhere" / "other")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(GenderMTError) as err:
        file_of("mine", given)
    assert all(w in str(err.value) for w in words) and "\n" not in str(err.value)


INCLUDE = """
import json, sys
from gendermt.config.benchmark_files import include
from gendermt.core.errors import GenderMTError
try:
    include({"benchmarks": {"mine": {"file": sys.argv[1], "prompts": ["plain"]}}})
except GenderMTError as exc:
    print(json.dumps({"error": str(exc)}))
    raise SystemExit(0)
from gendermt.core import registry
from gendermt.benchmarks.declared.config import spec_of
from gendermt.workflow.run_record import read_files
print(json.dumps({"package": registry.get("mine").package,
                  "languages": spec_of("mine")["languages"],
                  "files": [[s.key, s.path] for s in read_files(
                      {"benchmarks": {"mine": {"prompts": ["plain"]}}})]}))
"""


def included(tmp_path, given: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    env.pop(ENV, None)
    proc = subprocess.run([sys.executable, "-c", INCLUDE, given], cwd=tmp_path, env=env,
                          capture_output=True, text=True, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_included_before_the_registry_it_is_a_declared_benchmark(tmp_path):
    write(tmp_path / "elsewhere" / "mine")
    found = included(tmp_path, "elsewhere/mine")
    assert found["package"] == "gendermt.benchmarks.declared"
    assert found["languages"] == ["fr"]
    # its files are its data sources (relative to the working directory, as the rules name
    # them, where they are below it)
    assert found["files"] == [["benchmarks.mine.file", "elsewhere/mine/benchmark.yaml"],
                              ["benchmarks.mine.data.path", "elsewhere/mine/items.tsv"]]


def test_a_bad_heading_or_a_name_taken_is_one_line(tmp_path):
    write(tmp_path / "a" / "mine", {**SPEC, "name": "yours"})
    assert "is not its folder's name" in included(tmp_path, "a/mine")["error"]
    write(tmp_path / "b" / "mt-geneval-counterfactual",
          {**SPEC, "name": "mt-geneval-counterfactual"})
    proc = subprocess.run(
        [sys.executable, "-c", INCLUDE.replace('"mine"', '"mt-geneval-counterfactual"', 1),
         "b/mt-geneval-counterfactual"], cwd=tmp_path, capture_output=True, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")}, check=True)
    error = json.loads(proc.stdout.strip().splitlines()[-1])["error"]
    assert "declared twice: mt-geneval-counterfactual" in error and "\n" not in error
