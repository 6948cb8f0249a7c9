import shutil

import pytest

import gendermt.workflow.fingerprints as provenance


def test_modules_run_by_follows_imports():
    mods = provenance.modules_run_by("gendermt.translation.runner")
    assert {"gendermt.translation.runner", "gendermt.translation.backends",
            "gendermt.translation.backends.base",
            "gendermt.translation.cache", "gendermt.data.io", "gendermt"} <= set(mods)
    assert "gendermt.scoring.score" not in mods
    # issue 18 item 6: a translation job runs its own backend only (named by the rule), and
    # post-processing is a stage of its own (`gendermt.translation.extract`)
    assert not [m for m in mods if m.startswith("gendermt.translation.backends.")
                and m != "gendermt.translation.backends.base"], mods
    assert "gendermt.translation.postprocess" not in mods
    assert "gendermt.translation.postprocess" in provenance.modules_run_by(
        "gendermt.translation.extract")
    tables = provenance.modules_run_by("gendermt.benchmarks.fairtranslate.tables")
    assert "gendermt.analysis.anova" in tables and "gendermt.translation.runner" not in tables


@pytest.fixture
def copy_of_package(tmp_path, monkeypatch):
    root = tmp_path / "gendermt"
    shutil.copytree(provenance.ROOT, root, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(provenance, "ROOT", root)
    provenance._imports.cache_clear()
    yield root
    provenance._imports.cache_clear()


def test_fingerprint_changes_only_with_code_the_stage_runs(copy_of_package):
    jobs = {"oracle": ("gendermt.translation.runner", "gendermt.translation.backends.offline"),
            "api": ("gendermt.translation.runner", "gendermt.translation.backends.openai_api")}
    before = {m: provenance.code_fingerprint(m) for m in
              ("gendermt.translation.runner", "gendermt.scoring.score")}
    before_jobs = {j: provenance.code_fingerprint(*mods) for j, mods in jobs.items()}
    offline = copy_of_package / "translation" / "backends" / "offline.py"
    text = offline.read_text()
    # fingerprints follow content: a comment, a blank line or a docstring changes nothing
    assert text.startswith('"""')
    offline.write_text('"""Edited. ' + text[3:] + "\n# a comment\n\n")
    provenance._imports.cache_clear()
    assert provenance.code_fingerprint(*jobs["oracle"]) == before_jobs["oracle"]
    # a statement does, for the jobs that run the module only
    offline.write_text(text + "\n_CHANGED = 1\n")
    provenance._imports.cache_clear()
    assert provenance.code_fingerprint(*jobs["oracle"]) != before_jobs["oracle"]
    assert provenance.code_fingerprint(*jobs["api"]) == before_jobs["api"]
    assert provenance.code_fingerprint("gendermt.translation.runner") == before[
        "gendermt.translation.runner"]
    assert provenance.code_fingerprint("gendermt.scoring.score") == before[
        "gendermt.scoring.score"]


def test_function_local_imports_are_followed():
    """Modules imported inside functions (lazily, so that planning imports little) are still
    part of the importing module's fingerprint (issue 30)."""
    assert "gendermt.translation.runner" in provenance.modules_run_by(
        "gendermt.translation.source_translations")
    assert "gendermt.benchmarks.gambit.references" in provenance.modules_run_by(
        "gendermt.benchmarks.gambit.config")


def test_fingerprints_from_the_disk_cache_follow_the_source(copy_of_package, tmp_path,
                                                            monkeypatch):
    """The parsed imports are cached on disk by file content: a warm cache gives the same
    fingerprints as parsing, and an edited module (imports added) still changes them."""
    from gendermt.workflow import startup_cache

    monkeypatch.setattr(startup_cache, "_store", {})
    monkeypatch.setattr(startup_cache, "_dirty", False)
    startup_cache.enable(tmp_path / "startup.json")
    cold = provenance.code_fingerprint("gendermt.translation.runner")
    startup_cache.save()
    assert (tmp_path / "startup.json").is_file()
    startup_cache.enable(tmp_path / "startup.json")  # a new process: only the file
    provenance._imports.cache_clear()
    assert provenance.code_fingerprint("gendermt.translation.runner") == cold
    io = copy_of_package / "data" / "io.py"
    io.write_text(io.read_text() + "\n\ndef _later():\n    import gendermt.report.frontpage\n")
    provenance._imports.cache_clear()
    assert "gendermt.report.frontpage" in provenance.modules_run_by("gendermt.translation.runner")
    assert provenance.code_fingerprint("gendermt.translation.runner") != cold
    monkeypatch.setattr(startup_cache, "_path", None)
