"""The gendermt modules a module imports, followed transitively, read without importing anything
(``import`` statements anywhere in a file: function-local imports count), and a module's source
as it is compared (:func:`normalized`).

For developers' checks only, never a workflow's start-up: the stage-version lock
(tools/stage_lock.py: what each stage runs, hashed), the env files' check (which packages a
rule's code imports, gendermt.workflow.env_requirements) and the tests that a rule's ``code``
param covers what its script imports. What reruns is declared (gendermt.workflow.stage_versions).
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]  # src/gendermt


def _file_of(module: str) -> Path | None:
    return _locate(ROOT, module)


@cache  # by root too: tests point ROOT at a copy of the package
def _locate(root: Path, module: str) -> Path | None:
    parts = module.split(".")[1:]
    candidate = root.joinpath(*parts)
    if candidate.with_suffix(".py").is_file():
        return candidate.with_suffix(".py")
    if (candidate / "__init__.py").is_file():
        return candidate / "__init__.py"
    return None


def _package_of(module: str, path: Path) -> str:
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


@cache
def _imports(module: str) -> frozenset[str]:
    """gendermt modules that ``module`` imports directly, with their parent packages."""
    path = _file_of(module)
    if path is None:
        return frozenset()
    found: set[str] = set()
    for name in _imported_names(module, path):
        if name.split(".")[0] == "gendermt" and _file_of(name):
            parts = name.split(".")
            found.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    return frozenset(found)


def _imported_names(module: str, path: Path) -> list[str]:
    """Every name an import statement of ``module`` may import (anywhere in the file:
    function-local imports count)."""
    source = path.read_bytes()
    names = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = _package_of(module, path).split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            # `from pkg import name` may name a submodule or an attribute: keep what exists
            names += [target] + [f"{target}.{a.name}" for a in node.names]
    return [n for n in dict.fromkeys(names) if n.split(".")[0] == "gendermt"]


def modules_run_by(module: str) -> list[str]:
    """``module`` and every gendermt module it imports, transitively, sorted."""
    seen, todo = set(), [module]
    parts = module.split(".")
    todo += [".".join(parts[:i]) for i in range(1, len(parts))]
    while todo:
        name = todo.pop()
        if name not in seen and _file_of(name):
            seen.add(name)
            todo.extend(_imports(name))
    return sorted(seen)


def normalized(source: bytes) -> bytes:
    """A module's source as its fingerprint reads it: without import statements (they name
    places, not behaviour; what they import is fingerprinted on its own), docstrings,
    comment lines and blank lines."""
    tree = ast.parse(source)
    dropped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            dropped.update(range(node.lineno, node.end_lineno + 1))
        body = getattr(node, "body", None)
        if (isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                and body and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)):
            dropped.update(range(body[0].lineno, body[0].end_lineno + 1))
    kept = []
    for number, line in enumerate(source.decode("utf-8").splitlines(), start=1):
        stripped = line.strip()
        if number in dropped or not stripped or stripped.startswith("#"):
            continue
        kept.append(line.rstrip())
    # a module named in the code (a backend's "module:class", a logger's name) by its last
    # part: the rest says where it lives, which a move changes
    return _MODULE_PATH.sub(r"\1", "\n".join(kept)).encode("utf-8")


_MODULE_PATH = re.compile(r"\bgendermt(?:\.\w+)*\.(\w+)")


def imported_by(path: str | Path) -> list[str]:
    """The gendermt modules a file outside the package (a workflow script) imports directly."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(Path(path).read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
        else:
            continue
        found.update(n for n in names if n.split(".")[0] == "gendermt" and _file_of(n))
    return sorted(found)
