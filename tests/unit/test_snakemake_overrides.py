"""A script rule's code is its script's content (gendermt.workflow.snakemake_overrides,
part 3): the Snakemake
internals it replaces are still there and still do what it assumes, and the replacement
compares content, not paths."""

from __future__ import annotations

import inspect
from types import SimpleNamespace

from snakemake.jobs import Job
from snakemake.persistence import PersistenceBase

from gendermt.workflow import snakemake_overrides as script_rules


def test_snakemake_still_has_what_it_replaces():
    # if Snakemake renames or reshapes these, this fails instead of the override going stale
    code = inspect.getsource(script_rules._CODE)
    assert "run_func_src" in code and "shellcmd" in code
    assert list(inspect.signature(script_rules._CODE_CHANGED).parameters) == [
        "self", "job", "file"]
    assert "self.code(file)" in inspect.getsource(script_rules._CODE_CHANGED)
    older = inspect.getsource(script_rules._OLDER)
    assert "self.rule.script" in older and "get_script_mtime" in older


def test_installed_once():
    script_rules.install_script_rules()
    script_rules.install_script_rules()
    assert PersistenceBase._code_changed is script_rules._code_changed
    assert PersistenceBase._code is script_rules._code
    assert Job.outputs_older_than_script_or_notebook is script_rules._older


class Basedir:
    def __init__(self, path):
        self.path = str(path)

    def get_path_or_uri(self, secret_free=False):
        return self.path


def rule_with(tmp_path, text: str, name: str = "data.py"):
    (tmp_path / name).write_text(text, encoding="utf-8")
    return SimpleNamespace(script=name, basedir=Basedir(tmp_path))


def test_a_scripts_code_is_its_content_not_its_place_or_imports(tmp_path):
    a = script_rules.script_code(rule_with(tmp_path / "", "from gendermt.io import w\n"
                                           "w(snakemake.output[0])\n"))
    (tmp_path / "moved").mkdir()
    b = script_rules.script_code(rule_with(tmp_path / "moved", "# moved\nfrom gendermt.data.io"
                                           " import w\n\nw(snakemake.output[0])\n", "x.py"))
    c = script_rules.script_code(rule_with(tmp_path, "from gendermt.data.io import w\n"
                                           "w(snakemake.output[1])\n"))
    assert a.startswith(script_rules.PREFIX) and a == b != c


class Records:
    """A persistence with one recorded code."""

    def __init__(self, recorded):
        self.recorded = recorded

    def record_format_version(self, file):
        return 6

    def code(self, file):
        return self.recorded


def test_a_changed_script_reruns_and_a_record_from_before_stands(tmp_path):
    rule = rule_with(tmp_path, "print(1)\n")
    job = SimpleNamespace(rule=rule)
    current = script_rules.script_code(rule)
    assert not script_rules._code_changed(Records(current), job)
    assert script_rules._code_changed(Records(script_rules.PREFIX + "0" * 64), job)
    # what Snakemake recorded before: the rule file's line naming the script
    assert not script_rules._code_changed(Records('        "../scripts/data.py"\n'), job)
