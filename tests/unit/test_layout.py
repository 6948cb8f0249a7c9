"""The layout issue 54 settled: the package shows its stages, a benchmark is one folder, the
shared rule files are few and common.smk is lookups."""

from __future__ import annotations

from pathlib import Path

from gendermt.core import registry

from ..conftest import ROOT

PACKAGE = ROOT / "src" / "gendermt"


def test_the_package_has_at_most_eleven_top_level_modules():
    # ten stages, and the foundation under them (gendermt.core, issue 64)
    found = sorted(p.name for p in PACKAGE.iterdir()
                   if p.name not in ("__init__.py", "__main__.py", "__pycache__")
                   and (p.suffix == ".py" or (p / "__init__.py").is_file()))
    assert len(found) <= 11, found
    # each a package whose docstring says what it holds (docs/layout.md shows them)
    for name in found:
        init = PACKAGE / name / "__init__.py"
        assert init.is_file() and init.read_text(encoding="utf-8").startswith('"""'), name


def test_each_benchmarks_rule_file_scripts_and_captions_live_in_its_folder():
    for benchmark in registry.benchmarks():
        folder = registry.package_dir(benchmark)
        rules = registry.rules_file(benchmark)
        assert rules.is_file() and folder in rules.resolve().parents, benchmark.name
    # what is left in workflow/: the shared stages only
    shared = [p.stem for p in (ROOT / "workflow" / "scripts").glob("*.py")]
    names = {b.package.rsplit(".", 1)[-1] for b in registry.benchmarks()}
    assert not [s for s in shared if any(s.startswith(n + "_") for n in names)], shared


def test_the_shared_rule_files_are_few_and_common_smk_is_short():
    rule_files = sorted(Path(ROOT / "workflow" / "rules").glob("*.smk"))
    assert len(rule_files) <= 6, rule_files
    lines = (ROOT / "workflow" / "rules" / "common.smk").read_text(encoding="utf-8")
    assert len(lines.splitlines()) < 200
