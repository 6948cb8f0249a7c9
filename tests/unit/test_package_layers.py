"""The packages of gendermt stand in layers: the imports between them (every import statement,
those inside functions too, read from the source) make no circle, and the foundation
(gendermt.core) and the config (gendermt.config) import nothing of the stages above them."""

import ast
from collections import defaultdict
from functools import cache
from pathlib import Path

from ..conftest import ROOT

PACKAGE = ROOT / "src" / "gendermt"
#: The stage packages: what runs the benchmarks and shows their results.
STAGES = {"data", "translation", "scoring", "analysis", "report", "scorecard", "workflow", "cli",
          "benchmarks"}
#: The alias kept for benchmark packages written outside the project (it is the contract).
ALIASES = {"gendermt.benchmarks.contract"}


def _module(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(path: Path) -> list[tuple[str, int]]:
    """The gendermt modules a file imports (absolute, relative ones resolved), with lines."""
    module = _module(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                head = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*head, *([base] if base else [])])
            # `from gendermt import config` imports the package config
            found += [(f"{base}.{alias.name}" if base == "gendermt" else base, node.lineno)
                      for alias in node.names]
    return [(name, line) for name, line in found
            if name == "gendermt" or name.startswith("gendermt.")]


def _package(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "gendermt"


@cache
def package_imports() -> dict[tuple[str, str], list[str]]:
    """(importing package, imported package) → where (``file:line module``)."""
    edges: dict[tuple[str, str], list[str]] = defaultdict(list)
    for path in sorted(PACKAGE.rglob("*.py")):
        source = _module(path)
        if source in ALIASES:
            continue
        for name, line in _imported(path):
            if _package(name) != _package(source):
                edges[(_package(source), _package(name))].append(
                    f"{path.relative_to(ROOT)}:{line} {name}")
    return edges


def circles(edges: dict[tuple[str, str], list[str]]) -> list[set[str]]:
    """The packages that reach each other through imports, each group once."""
    ahead: dict[str, set[str]] = defaultdict(set)
    for a, b in edges:
        ahead[a].add(b)

    def reach(start: str) -> set[str]:
        seen, todo = set(), [start]
        while todo:
            for nxt in ahead[todo.pop()] - seen:
                seen.add(nxt)
                todo.append(nxt)
        return seen

    reached = {p: reach(p) for p in list(ahead)}
    groups = []
    for p in reached:
        group = {q for q in reached if q in reached[p] and p in reached[q]}
        if group and group not in groups:
            groups.append(group)
    return groups


def test_the_reader_sees_imports_inside_functions():
    # system_files imports the stored backend inside a function, the foundation at the top
    found = {n for n, _ in _imported(PACKAGE / "workflow" / "system_files.py")}
    assert {"gendermt.translation.backends.stored", "gendermt.core"} <= found
    assert ("workflow", "translation") in package_imports()


def test_a_circle_is_found():
    made = {("config", "data"): ["x"], ("data", "report"): ["y"], ("report", "config"): ["z"],
            ("cli", "config"): ["w"]}
    assert circles(made) == [{"config", "data", "report"}]


def test_no_circle_between_the_packages_of_gendermt():
    edges = package_imports()
    found = circles(edges)
    where = {f"{a} -> {b}": edges[(a, b)] for group in found for a in group for b in group
             if (a, b) in edges}
    assert not found, f"packages that import each other: {found}; the imports: {where}"


def test_the_foundation_imports_nothing_above_it():
    above = {(a, b): w for (a, b), w in package_imports().items()
             if a == "core" and b != "gendermt"}
    assert not above, above


def test_config_imports_only_the_foundation():
    above = {(a, b): w for (a, b), w in package_imports().items()
             if a == "config" and b not in ("core", "gendermt")}
    assert not above, above
    assert not STAGES & {b for a, b in above}
