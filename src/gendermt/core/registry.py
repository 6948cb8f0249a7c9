"""Every benchmark's contract, found by looking: a package under ``gendermt/benchmarks/`` with a
``contract.py`` is a benchmark. Adding one touches no shared file of the package.

The contracts are imported by name (``gendermt.benchmarks.<package>.contract``), never by an
import statement: the foundation stands below the benchmarks it lists."""

from __future__ import annotations

import copy
import importlib
import pkgutil
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from gendermt.core.contract import DATA_COLUMNS, Benchmark, NodeRule, StoredFormat
from gendermt.core.errors import GenderMTError

#: The package whose sub-packages are the benchmarks, and its folder.
PACKAGE = "gendermt.benchmarks"
ROOT = Path(__file__).resolve().parents[1] / "benchmarks"


@cache
def _registry() -> dict[str, Benchmark]:
    found: list[Benchmark] = []
    for info in pkgutil.iter_modules([str(ROOT)]):
        if not info.ispkg or not (ROOT / info.name / "contract.py").is_file():
            continue
        module = importlib.import_module(f"{PACKAGE}.{info.name}.contract")
        if not hasattr(module, "CONTRACTS"):
            raise GenderMTError(f"{module.__name__} defines no CONTRACTS (a tuple of "
                                "Benchmark: gendermt.core.contract)")
        found.extend(module.CONTRACTS)
    found.sort(key=lambda b: (b.order, b.name))
    names = [b.name for b in found]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise GenderMTError(f"benchmark name(s) declared twice: {', '.join(twice)}")
    return {b.name: b for b in found}


def benchmarks() -> list[Benchmark]:
    """Every benchmark, in their order (scorecard columns, report, listings)."""
    return list(_registry().values())


def names() -> list[str]:
    return list(_registry())


def configured(blocks: Mapping[str, Any]) -> list[Benchmark]:
    """The benchmarks a config's ``benchmarks:`` block configures, in their order: the
    Snakefile includes only their rule files (a rule file never sees a config without its
    block, so it guards nothing it computes at parse time)."""
    return [b for b in benchmarks() if b.name in blocks]


def get(name: str) -> Benchmark:
    try:
        return _registry()[name]
    except KeyError:
        raise GenderMTError(f"unknown benchmark {name!r}; known: {', '.join(names())}") from None


def _merged(field: str, what: str) -> dict[str, Any]:
    """One mapping field of every contract, merged; a name two benchmarks declare stops."""
    found: dict[str, Any] = {}
    for benchmark in benchmarks():
        declared = getattr(benchmark, field)
        twice = set(found) & set(declared)
        if twice:
            raise GenderMTError(f"{benchmark.name}: {what}(s) declared twice: "
                                f"{', '.join(sorted(twice))}")
        found.update(declared)
    return found


def data_columns(benchmark: str) -> dict[str, str]:
    """The data table's required columns of a benchmark: the generic ones, its own and those
    a subset may use (its contract's ``subset_columns``, of any kind)."""
    contract = get(benchmark)
    return {**DATA_COLUMNS, **{c: "any" for c in contract.subset_columns},
            **contract.data_columns}


def node_rules() -> dict[str, NodeRule]:
    """Every benchmark's rules that need a node, with their resources."""
    return _merged("node_rules", "node rule")


def stored_formats() -> dict[str, StoredFormat]:
    """Every benchmark's formats of the ``stored`` backend, by name."""
    return _merged("stored_formats", "stored format")


def node_resources(rule: str) -> dict[str, Any]:
    """A node rule's ``resources:`` (runtime and memory grow with the attempt)."""
    try:
        spec = node_rules()[rule]
    except KeyError:
        raise GenderMTError(f"rule {rule!r} is no benchmark's node rule (contract.py "
                            "node_rules)") from None
    return {
        "runtime": lambda wildcards, attempt: spec.runtime * attempt,
        "mem_mb": lambda wildcards, attempt: spec.mem_mb * attempt,
        "cpus_per_task": spec.cpus_per_task,
    }


def package_dir(benchmark: Benchmark) -> Path:
    return ROOT / benchmark.package.rsplit(".", 1)[-1]


def rules_file(benchmark: Benchmark) -> Path:
    """The benchmark's rule file: its contract's ``rules``, relative to its package's folder,
    wherever the package is installed (the Snakefile includes it)."""
    return package_dir(benchmark) / benchmark.rules


def schema_fragment(benchmark: Benchmark) -> dict[str, Any]:
    path = package_dir(benchmark) / benchmark.schema
    return _load_yaml(path.read_text(encoding="utf-8"))


# libyaml's parser where PyYAML has it (the same documents, several times faster: composing
# the schema is part of every workflow start-up)
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _load_yaml(text: str) -> Any:
    return yaml.load(text, Loader=_LOADER)  # noqa: S506 (a safe loader)


def config_schema(base: str | Path) -> dict[str, Any]:
    """The workflow's config schema: ``base`` with every benchmark's fragment as
    ``benchmarks.properties.<name>`` (unknown benchmark names stay rejected)."""
    schema = copy.deepcopy(_load_yaml(Path(base).read_text(encoding="utf-8")))
    properties = schema["properties"]["benchmarks"].setdefault("properties", {})
    for benchmark in benchmarks():
        properties[benchmark.name] = schema_fragment(benchmark)
    return schema


def write_schema(schema: dict[str, Any], dest: str | Path) -> Path:
    """A composed schema written to ``dest`` (Snakemake's ``validate`` reads a file);
    rewritten only when it changed."""
    dest = Path(dest)
    text = yaml.safe_dump(schema, sort_keys=False, allow_unicode=True)
    if not dest.is_file() or dest.read_text(encoding="utf-8") != text:
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(text, encoding="utf-8")
    return dest


def write_config_schema(base: str | Path, dest: str | Path) -> Path:
    """:func:`config_schema` written to ``dest``."""
    return write_schema(config_schema(base), dest)
