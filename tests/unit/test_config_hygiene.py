"""Issue 51 item 14: config hygiene. A config file with a key twice is refused naming the key
and both lines (at the workflow's start-up and by the project's own entry points); a folder,
a missing, UTF-16 or binary file given as a config file is one line from the project's entry
points (`python -m gendermt.config.run`, which `make run`/`make report` call before
Snakemake: `snakemake --configfile` itself fails in Snakemake's own CLI, before any project
code); a missing model folder gets advice about model folders; a system name over 64
characters is one line from the schema."""

from __future__ import annotations

import copy
import subprocess
import sys

import pytest
import yaml

from gendermt.core.errors import GenderMTError

from ..conftest import ROOT


@pytest.fixture
def files(tmp_path):
    found = {}
    found["dup"] = tmp_path / "dup.yaml"
    found["dup"].write_text("run: mine\nsystems:\n  a: {backend: copy-source}\n"
                            "run: other\n", encoding="utf-8")
    found["nested"] = tmp_path / "nested.yaml"
    found["nested"].write_text("run: mine\nsystems:\n  a: {backend: copy-source}\n"
                               "  b: {backend: copy-source}\n  a: {backend: stored}\n",
                               encoding="utf-8")
    found["folder"] = tmp_path / "folder.yaml"
    found["folder"].mkdir()
    found["missing"] = tmp_path / "missing.yaml"
    found["utf16"] = tmp_path / "utf16.yaml"
    found["utf16"].write_bytes("run: mine\n".encode("utf-16"))
    found["binary"] = tmp_path / "binary.yaml"
    found["binary"].write_bytes(bytes(range(256)) * 4)
    return found


def test_a_key_twice_is_refused_naming_the_key_and_both_lines(files):
    from gendermt.config.files import read_config

    with pytest.raises(GenderMTError, match=r"dup\.yaml: key 'run' given twice \(lines 1 "
                                            r"and 4\)"):
        read_config(files["dup"])
    with pytest.raises(GenderMTError, match=r"key 'a' given twice \(lines 3 and 5\)"):
        read_config(files["nested"])


def test_start_up_refuses_a_key_twice(files):
    from snakemake.exceptions import WorkflowError

    from gendermt.workflow.startup import check_config_and_schema

    config = yaml.safe_load(files["dup"].read_text(encoding="utf-8"))
    with pytest.raises(WorkflowError, match=r"dup\.yaml: key 'run' given twice \(lines 1 "
                                            r"and 4\)"):
        check_config_and_schema(config, [str(files["dup"])], str(ROOT), None)


def run_module(*args):
    return subprocess.run([sys.executable, "-m", "gendermt.config.run", *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT)


@pytest.mark.parametrize("name, words", [
    ("folder", ["is a folder"]),
    ("missing", ["no such config file"]),
    ("utf16", ["UTF-16", "save it as UTF-8"]),
    ("binary", ["not UTF-8 text"]),
    ("dup", ["key 'run' given twice (lines 1 and 4)"]),
])
@pytest.mark.parametrize("mode", ["check", "report-path"])
def test_a_bad_config_file_is_one_line_from_the_entry_point(files, name, words, mode):
    proc = run_module(mode, files[name])
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert str(files[name]) in lines[0]
    for word in words:
        assert word in lines[0], lines[0]


def test_the_check_mode_passes_good_files():
    proc = run_module("check", ROOT / "config/config.yaml")
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr


def test_make_runs_the_check_before_snakemake():
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    for target in ("run:", "report:"):
        recipe = text.split(f"\n{target}", 1)[1].split("\n\n", 1)[0]
        assert "gendermt.config.run check" in recipe.splitlines()[1], recipe


def test_a_missing_model_folder_gets_model_folder_advice(tmp_path):
    from gendermt.workflow.system_files import check_system_files

    config = {"systems": {"mine": {"backend": "hf-seq2seq", "model": "./models/nope"}},
              "benchmarks": {}}
    with pytest.raises(GenderMTError) as err:
        check_system_files(config, {"winomt": [{"system": "mine", "prompt": "p"}]})
    message = str(err.value)
    assert "model folder not found: ./models/nope" in message
    assert "stored template" not in message
    assert "config.json" in message and "\n" not in message


def test_a_very_long_system_name_is_one_line_with_the_limit():
    from gendermt.config.checks import check_schema
    from gendermt.core import registry

    config = yaml.safe_load((ROOT / "config/config.yaml").read_text(encoding="utf-8"))
    schema = registry.config_schema(ROOT / "workflow/schemas/config.schema.yaml")
    check_schema(copy.deepcopy(config), schema, fill_defaults=True)
    config["systems"]["s" * 65] = {"backend": "copy-source"}
    with pytest.raises(GenderMTError) as err:
        check_schema(config, schema, fill_defaults=True)
    message = str(err.value)
    assert "\n" not in message and "64" in message and "systems" in message, message
