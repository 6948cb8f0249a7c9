"""Every benchmark's contract, found by looking: a package under ``gendermt/benchmarks/`` with a
``contract.py`` is a benchmark. Adding one touches no shared file of the package."""

from __future__ import annotations

import copy
import importlib
import pkgutil
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from gendermt.errors import GenderMTError

from .contract import Benchmark

ROOT = Path(__file__).parent


@cache
def _registry() -> dict[str, Benchmark]:
    found: list[Benchmark] = []
    for info in pkgutil.iter_modules([str(ROOT)]):
        if not info.ispkg or not (ROOT / info.name / "contract.py").is_file():
            continue
        module = importlib.import_module(f"{__package__}.{info.name}.contract")
        found.extend(module.BENCHMARKS)
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


def get(name: str) -> Benchmark:
    try:
        return _registry()[name]
    except KeyError:
        raise GenderMTError(f"unknown benchmark {name!r}; known: {', '.join(names())}") from None


def package_dir(benchmark: Benchmark) -> Path:
    return ROOT / benchmark.package.rsplit(".", 1)[-1]


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
