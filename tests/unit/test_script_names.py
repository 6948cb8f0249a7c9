"""No workflow script is named like a module it imports, directly or through the gendermt
modules it runs (issue 53: workflow/scripts/comet.py made `import comet` in
gendermt.scoring.comet import that script itself, not unbabel-comet).

Snakemake appends a script's own folder to ``sys.path`` when it runs the script without a
per-rule conda environment; a package missing from the environment is then found there, and
the job dies with ``NameError: name 'snakemake' is not defined`` instead of our "install it"
message. Standard-library names are refused too (a script named ``types.py`` would shadow
nothing today but breaks the day the path order changes)."""

from __future__ import annotations

import ast
import sys
from functools import cache
from pathlib import Path

from ..conftest import ROOT

SRC = ROOT / "src"
SCRIPTS = sorted([*ROOT.joinpath("workflow", "scripts").glob("*.py"),
                  *SRC.joinpath("gendermt", "benchmarks").glob("*/scripts/*.py")])


def module_file(name: str) -> Path | None:
    """The source file of a gendermt module or package (None when the name is an attribute)."""
    base = SRC.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def imported(path: Path, package: str | None) -> set[str]:
    """Every module name an import statement of the file names (function-level ones too);
    relative imports resolved against `package`."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            target = node.module or ""
            if node.level and package:
                parts = package.split(".")
                parts = parts[:len(parts) - node.level + 1]
                target = ".".join(parts + ([node.module] if node.module else []))
            names.add(target)
            names.update(f"{target}.{a.name}" for a in node.names)
    return {n for n in names if n}


@cache
def reached(path: Path, package: str | None) -> frozenset[str]:
    """The top-level names of every module the file imports, and of those that the gendermt
    modules it imports import, transitively."""
    found: set[str] = set()
    todo = [(path, package)]
    seen: set[Path] = set()
    while todo:
        current, pkg = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        for name in imported(current, pkg):
            found.add(name.split(".")[0])
            if name.split(".")[0] == "gendermt" and (file := module_file(name)) is not None:
                parent = name if file.name == "__init__.py" else name.rpartition(".")[0]
                todo.append((file, parent))
    return frozenset(found)


def test_scripts_are_found():
    names = {p.stem for p in SCRIPTS}
    assert len(SCRIPTS) > 40 and {"translate", "score", "bertscore"} <= names


def test_no_script_is_named_like_a_module_it_imports():
    clashes = {}
    for script in SCRIPTS:
        modules = reached(script, None) | set(sys.stdlib_module_names)
        if script.stem in modules:
            clashes[str(script.relative_to(ROOT))] = script.stem
    assert not clashes, (f"scripts named like a module they import: {clashes}; Snakemake puts "
                         "the script's folder on sys.path, so `import <name>` would find the "
                         "script: rename it (e.g. <name>_scores.py) and its rule's `script:`")


def test_the_guard_sees_comet_through_the_scoring_module():
    """What the COMET script runs imports unbabel-comet's `comet` (inside a function): the
    walk reaches it, so a script named comet.py is refused."""
    script = ROOT / "workflow" / "scripts" / "comet_scores.py"
    assert "comet" in reached(script, None)
