"""The benchmark contract: every package with a contract.py is found, and what each contract
names exists (rule file, schema fragment, CLI, scorecard reader, config check)."""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import pytest
import yaml

from gendermt.core import contract, registry
from gendermt.core.errors import GenderMTError

from ..conftest import ROOT

CONTRACTS = registry.benchmarks()
IDS = [b.name for b in CONTRACTS]
VOCABULARY = {"data": "build", "inputs": "build_inputs", "evaluate": "score_run",
              "tables": "build_tables", "figures": "build_figures", "cli": "register",
              "scorecard": "read", "findings": "part"}


def test_every_benchmark_package_with_a_contract_is_registered():
    packages = {p.parent.name for p in (ROOT / "src/gendermt/benchmarks").glob("*/contract.py")}
    assert {b.package.rsplit(".", 1)[-1] for b in CONTRACTS} == packages
    assert {"fairtranslate", "neogate", "neogate-flores", "conga", "gambit", "gate-x-e", "gate",
            "winomt"} <= set(IDS)
    # in their order, ties (a declared benchmark copied from another keeps its `order`) by
    # name; the packaged benchmarks' orders are distinct
    assert [(b.order, b.name) for b in CONTRACTS] == sorted((b.order, b.name) for b in CONTRACTS)
    packaged = [b.order for b in CONTRACTS if b.package != "gendermt.benchmarks.declared"]
    assert len(set(packaged)) == len(packaged)


@pytest.mark.parametrize("bench", CONTRACTS, ids=IDS)
def test_what_a_contract_names_exists(bench):  # noqa: C901 (one assert per contract field)
    assert registry.rules_file(bench).is_file()
    fragment = registry.schema_fragment(bench)
    assert fragment["type"] == "object" and fragment["additionalProperties"] is False
    if bench.cli:
        assert callable(importlib.import_module(bench.cli).register)
    if bench.check:
        assert list(inspect.signature(contract.resolve(bench.check)).parameters) == [
            "spec", "config"]
    if bench.templates:
        assert callable(contract.resolve(bench.templates))
    if bench.scorecard:
        assert callable(contract.resolve(bench.scorecard.reader))
        assert all(t.startswith(f"{bench.name}/") or t.split("/")[0] in IDS
                   for t in bench.scorecard.tables)
        if bench.scorecard.findings:
            from gendermt.report.findings import Part

            assert isinstance(contract.resolve(bench.scorecard.findings)(), Part)
    keys = set(fragment["properties"])
    for key in bench.data_keys + bench.data_stage_keys:
        assert key.split(".")[0].rstrip("/") in keys, key
    assert set(bench.data_stage_keys) <= set(bench.data_keys)
    for path in bench.labels:
        assert path.split("/")[0] == bench.name, path
    # what the README's generated tables say of it (tools/gen_docs.py), its study data's
    # stand-ins (tests/study_support.py)
    assert bench.direction and bench.description
    assert (ROOT / "docs" / "benchmarks" / (bench.page or f"{bench.name}.md")).is_file()
    if bench.scorecard:
        assert bench.scorecard.figures and all(len(f) == 3 for f in bench.scorecard.figures)
    for name, ref in bench.normalizers.items():
        assert callable(contract.resolve(ref)), name
    for name, fmt in bench.stored_formats.items():
        assert callable(contract.resolve(fmt.reader)), name
        assert all(isinstance(v, tuple) and v for v in fmt.settings.values()), name
    for key, sample in bench.samples.items():
        assert (ROOT / sample.replace("{prompt}", "*")).parent.is_dir(), (key, sample)
        assert key.startswith("/") or key.split(".")[0] in keys, key


@pytest.mark.parametrize("bench", CONTRACTS, ids=IDS)
def test_stage_modules_have_the_vocabulary_entry_points(bench):
    """A package's stage modules (data, inputs, evaluate, tables, figures, cli, scorecard)
    each define their entry point (a benchmark without a stage has no module for it)."""
    folder = registry.package_dir(bench)
    for module, entry in VOCABULARY.items():
        path = folder / f"{module}.py"
        if not path.is_file() or module == "cli" and bench.cli is None:
            continue
        defined = {n.name for n in ast.parse(path.read_text()).body
                   if isinstance(n, ast.FunctionDef)}
        assert entry in defined, f"{path.relative_to(ROOT)} has no {entry}()"


def test_contract_modules_import_nothing_of_their_benchmark():
    """Reading the registry imports no stage: each job's code fingerprint stays its own."""
    for path in (ROOT / "src/gendermt/benchmarks").glob("*/contract.py"):
        imported = {n.module for n in ast.walk(ast.parse(path.read_text()))
                    if isinstance(n, ast.ImportFrom)}
        assert imported <= {"gendermt.core.contract"}, path


def test_the_schema_is_the_base_with_every_fragment():
    base = yaml.safe_load((ROOT / "workflow/schemas/config.schema.yaml").read_text())
    assert base["properties"]["benchmarks"]["properties"] == {}
    composed = registry.config_schema(ROOT / "workflow/schemas/config.schema.yaml")
    assert list(composed["properties"]["benchmarks"]["properties"]) == IDS
    assert composed["properties"]["benchmarks"]["additionalProperties"] is False


def test_an_unknown_benchmark_is_named():
    with pytest.raises(GenderMTError, match="unknown benchmark 'nope'; known: fairtranslate"):
        registry.get("nope")


def shared_files() -> list[Path]:
    """Every file that is no benchmark's own: the Snakefile, the rule files no contract
    names, and every module of the package outside the benchmark packages (the backends, the
    scorecard, scoring, the CLI, ...), the registry and the contract among them."""
    own_rules = {registry.rules_file(b) for b in CONTRACTS}
    rules = [p for p in sorted((ROOT / "workflow/rules").glob("*.smk")) if p not in own_rules]
    package = ROOT / "src/gendermt"
    modules = [p for p in sorted(package.rglob("*.py"))
               if p.relative_to(package).parts[0] != "benchmarks"
               or p.parent == package / "benchmarks"]
    return [ROOT / "Snakefile", *rules, *modules]


def code_of(path: Path) -> str:
    """A file less its comments and, for Python, its docstrings (prose may name benchmarks;
    code must not)."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    if path.suffix == ".py":
        for node in ast.walk(ast.parse(text)):
            if (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
                    and isinstance(node.value.value, str)):
                lines[node.lineno - 1:node.end_lineno] = [""] * (node.end_lineno
                                                                 - node.lineno + 1)
    return "\n".join(line.split("#", 1)[0] for line in lines)


def named_benchmarks(code: str) -> list[str]:
    names = [b.name for b in CONTRACTS] + [b.package.rsplit(".", 1)[-1] for b in CONTRACTS]
    return sorted({n for n in names if f'"{n}"' in code or f"'{n}'" in code
                   or f"benchmarks.{n}" in code or f"{n}.smk" in code})


def test_the_shared_files_name_no_benchmark():
    """The Snakefile, the shared rule files and the generic modules iterate over the
    registry: a benchmark's normalisers, stored formats, scorecard options come from its
    contract."""
    files = shared_files()
    checked = {str(p.relative_to(ROOT)) for p in files}
    assert {"Snakefile", "workflow/rules/common.smk", "workflow/rules/translate.smk",
            "src/gendermt/cli/__init__.py", "src/gendermt/translation/backends/stored.py",
            "src/gendermt/scoring/normalization.py", "src/gendermt/scorecard/build.py",
            "src/gendermt/core/registry.py", "src/gendermt/report/findings.py"} <= checked
    assert not any("/benchmarks/winomt/" in p for p in checked)
    for path in files:
        found = named_benchmarks(code_of(path))
        assert not found, f"{path.relative_to(ROOT)} names {found}"


def test_the_check_sees_a_benchmark_named_in_code_not_in_prose(tmp_path):
    module = tmp_path / "m.py"
    module.write_text('"""WinoMT\'s "winomt" format, in prose."""\n'
                      "# benchmarks.winomt in a comment\n"
                      "FORMATS = ('lines', 'table')\n", encoding="utf-8")
    assert named_benchmarks(code_of(module)) == []
    module.write_text(module.read_text() + "FORMATS += ('winomt',)\n", encoding="utf-8")
    assert named_benchmarks(code_of(module)) == ["winomt"]


def test_a_new_package_with_a_contract_is_found(tmp_path, monkeypatch):
    pkg = Path(registry.ROOT) / "zz_registry_probe"
    pkg.mkdir()
    try:
        (pkg / "__init__.py").write_text("")
        (pkg / "contract.py").write_text(
            "from gendermt.core.contract import Benchmark\n"
            "CONTRACTS = (Benchmark(name='probe', label='Probe', order=999, "
            "package='gendermt.benchmarks.zz_registry_probe', rules='workflow/rules/x.smk'),)\n")
        registry._registry.cache_clear()
        assert registry.names()[-1] == "probe"
        assert registry.get("probe").label == "Probe"
    finally:
        for f in pkg.glob("*"):
            f.unlink() if f.is_file() else None
        for f in pkg.glob("__pycache__/*"):
            f.unlink()
        (pkg / "__pycache__").exists() and (pkg / "__pycache__").rmdir()
        pkg.rmdir()
        registry._registry.cache_clear()


def test_packages_written_outside_the_project_import_the_contract_by_its_old_name():
    from gendermt.benchmarks.contract import Benchmark, NodeRule, Scorecard, StoredFormat

    old = importlib.import_module("gendermt.benchmarks.contract")
    assert old is contract
    assert (Benchmark, NodeRule, Scorecard, StoredFormat) == (
        contract.Benchmark, contract.NodeRule, contract.Scorecard, contract.StoredFormat)


def test_a_rule_file_is_found_in_its_package_wherever_that_is():
    for bench in CONTRACTS:
        assert not Path(bench.rules).is_absolute() and "/" not in bench.rules, bench.name
        assert registry.rules_file(bench).parent == registry.package_dir(bench), bench.name
