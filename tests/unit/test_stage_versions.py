"""What reruns is declared (issue 64): a job's ``code`` param is its stages' versions
(gendermt.workflow.stage_versions), and the lock (tools/stage_lock.py) fails when a stage's code
changes without a version bump or a "behaviour unchanged" entry."""

from __future__ import annotations

import json
import shutil

import pytest

from gendermt.workflow import import_graph, stage_versions
from gendermt.workflow.translation_code import translation_code_of
from tools import stage_lock


def test_the_lock_is_up_to_date():
    """CI's check: every stage the rules name has a version, and none changed unlocked."""
    found = stage_lock.problems()
    assert not found, "\n".join(found)


def test_version_1_is_the_fingerprint_c0d773e_gave():
    """Results made before versions were declared stay current: version 1 of a combination
    is its c0d773e fingerprint (tools/stage_versions_v1.py made the table from that commit)."""
    assert stage_versions.stage_code("gendermt.benchmarks.gate.tables") == "7c02b557ad2b317f"
    assert stage_versions.stage_code("gendermt.analysis.finish") == "a173852be85ad786"
    # order and repeats of the stages named do not matter
    pair = ("gendermt.benchmarks.gate.data", "gendermt.data.provenance")
    assert stage_versions.stage_code(*pair) == stage_versions.stage_code(*pair[::-1], pair[0])
    assert translation_code_of({"backend": "reference-oracle"}) in set(
        json.loads(stage_versions.V1.read_text()).values())


def test_a_bumped_stage_changes_exactly_the_params_that_name_it(monkeypatch):
    stage_versions._versions.cache_clear()
    versions = dict(stage_versions._versions())
    before = {s: stage_versions.stage_code(*s) for s in [
        ("gendermt.benchmarks.gate.tables",), ("gendermt.benchmarks.gate.figures",),
        ("gendermt.benchmarks.gate.data", "gendermt.data.provenance")]}
    stored = {"backend": "stored", "path": "x/{prompt}.txt", "format": "winomt"}
    translations = {"stored": translation_code_of(stored),
                    "oracle": translation_code_of({"backend": "reference-oracle"})}
    monkeypatch.setattr(stage_versions, "_versions", lambda: {
        **versions, "gendermt.data.provenance": 2, "gendermt.benchmarks.winomt.stored_format": 2})
    after = {s: stage_versions.stage_code(*s) for s in before}
    assert [s for s in before if before[s] != after[s]] == [
        ("gendermt.benchmarks.gate.data", "gendermt.data.provenance")]
    assert after[("gendermt.benchmarks.gate.data", "gendermt.data.provenance")] == (
        "gendermt.benchmarks.gate.data@1 gendermt.data.provenance@2")
    # a stored format's reader is a stage of its translations: bumping it redoes them
    assert translation_code_of(stored) != translations["stored"]
    assert translation_code_of({"backend": "reference-oracle"}) == translations["oracle"]


def test_a_new_backend_or_contract_field_changes_no_param(tmp_path, monkeypatch):
    """Adding a backend to the registry or a field to the contract changes no version: the
    params are read from the versions file, not from the code."""
    package = tmp_path / "gendermt"
    shutil.copytree(import_graph.ROOT, package,
                    ignore=shutil.ignore_patterns("__pycache__", "_project"))
    stored = {"backend": "stored", "path": "x/{prompt}.txt", "format": "winomt"}
    before = (stage_versions.stage_code("gendermt.benchmarks.gate.data"),
              translation_code_of(stored))
    for path in package.rglob("contract.py"):
        path.write_text(path.read_text() + "\nNEW_FIELD = 1\n")
    monkeypatch.setattr(import_graph, "ROOT", package)
    import_graph._imports.cache_clear()
    assert (stage_versions.stage_code("gendermt.benchmarks.gate.data"),
            translation_code_of(stored)) == before
    import_graph._imports.cache_clear()


def test_modules_run_by_follows_imports():
    mods = import_graph.modules_run_by("gendermt.translation.runner")
    assert {"gendermt.translation.runner", "gendermt.translation.backends",
            "gendermt.translation.backends.base",
            "gendermt.translation.cache", "gendermt.data.io", "gendermt"} <= set(mods)
    assert "gendermt.scoring.score" not in mods
    # issue 18 item 6: a translation job runs its own backend only (named by the rule), and
    # post-processing is a stage of its own (`gendermt.translation.extract`)
    assert not [m for m in mods if m.startswith("gendermt.translation.backends.")
                and m != "gendermt.translation.backends.base"], mods
    assert "gendermt.translation.postprocess" not in mods
    assert "gendermt.translation.postprocess" in import_graph.modules_run_by(
        "gendermt.translation.extract")
    tables = import_graph.modules_run_by("gendermt.benchmarks.fairtranslate.tables")
    assert "gendermt.analysis.anova" in tables and "gendermt.translation.runner" not in tables


def test_function_local_imports_are_followed():
    """Modules imported inside functions (lazily, so that planning imports little) are still
    part of what the importing stage runs (issue 30)."""
    assert "gendermt.translation.runner" in import_graph.modules_run_by(
        "gendermt.translation.source_translations")
    assert "gendermt.benchmarks.gambit.references" in import_graph.modules_run_by(
        "gendermt.benchmarks.gambit.config")


@pytest.fixture
def copy_of_package(tmp_path, monkeypatch):
    root = tmp_path / "gendermt"
    shutil.copytree(import_graph.ROOT, root, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(import_graph, "ROOT", root)
    import_graph._imports.cache_clear()
    yield root
    import_graph._imports.cache_clear()


def test_the_lock_names_a_stage_whose_code_changed(copy_of_package):
    """A statement added to the offline backend fails the lock for the stages that run it
    (naming the module and the two ways out), and only for those; a comment, a blank line or
    a docstring changes nothing."""
    lock = stage_lock.load()
    offline = copy_of_package / "translation" / "backends" / "offline.py"
    text = offline.read_text()
    assert text.startswith('"""')
    offline.write_text('"""Edited. ' + text[3:] + "\n# a comment\n\n")
    import_graph._imports.cache_clear()
    assert stage_lock.problems(lock) == []
    offline.write_text(text + "\n_CHANGED = 1\n")
    import_graph._imports.cache_clear()
    found = stage_lock.problems(lock)
    assert found and all("gendermt.translation.backends.offline" in f for f in found), found
    assert any(f.startswith("gendermt.translation.backends.offline: its code changed")
               and "stage_lock bump" in f and "stage_lock unchanged" in f for f in found)
    assert not [f for f in found if f.startswith(("gendermt.scoring.score:",
                                                  "gendermt.translation.runner:"))]


def test_bump_and_unchanged_bring_the_lock_up_to_date(copy_of_package, tmp_path, monkeypatch):
    lock_file = tmp_path / "stage_versions.json"
    shutil.copy(stage_lock.LOCK, lock_file)
    monkeypatch.setattr(stage_lock, "LOCK", lock_file)
    tables = copy_of_package / "benchmarks" / "gate" / "tables.py"
    tables.write_text(tables.read_text() + "\n_CHANGED = 1\n")
    figures = copy_of_package / "benchmarks" / "gate" / "figures.py"
    figures.write_text(figures.read_text() + "\n_CHANGED = 1\n")
    import_graph._imports.cache_clear()
    assert {f.split(":")[0] for f in stage_lock.problems()} >= {
        "gendermt.benchmarks.gate.tables", "gendermt.benchmarks.gate.figures"}
    stage_lock.record(["gendermt.benchmarks.gate.tables"], bump=True)
    stage_lock.record(["gendermt.benchmarks.gate.figures"], bump=False, why="a test")
    assert stage_lock.problems() == []
    saved = json.loads(lock_file.read_text())
    assert saved["stages"]["gendermt.benchmarks.gate.tables"]["version"] == 2
    assert saved["stages"]["gendermt.benchmarks.gate.figures"]["version"] == 1
    assert saved["unchanged"][-1]["stage"] == "gendermt.benchmarks.gate.figures"
    assert saved["unchanged"][-1]["why"] == "a test"
