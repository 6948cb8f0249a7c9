"""Fingerprints of the package code a workflow stage runs.

Snakemake reruns a job when its ``script:`` changes, but the logic lives in this package.
A rule passes ``code_fingerprint(<its module>)`` as a param, so that editing that module,
or any gendermt module it imports (transitively), reruns the jobs that ran it and nothing
else. Modules are found by parsing imports, without importing anything.

A fingerprint follows what the code does, not where it lives: it hashes each module's
statements without its imports, docstrings, comment lines and blank lines, and without its
name, so moving or renaming a module (and rewriting the imports that name it) reruns nothing.
Code that ran before fingerprints followed content keeps the fingerprint it had then
(:data:`LEGACY`), so that results made before the layout move of issue 54 stay current.
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
from functools import cache
from pathlib import Path

from gendermt.workflow import startup_cache

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
    function-local imports count), from the on-disk cache when the file's bytes are known
    (parsing the package is a third of the workflow's start-up; :mod:`startup_cache`)."""
    source = path.read_bytes()
    key = startup_cache.content_key(f"imports:{module}:{path.name}", source)
    names = startup_cache.get(key)
    if names is not None:
        return names
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
    names = [n for n in dict.fromkeys(names) if n.split(".")[0] == "gendermt"]
    startup_cache.put(key, names)
    return names


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


# Each fingerprint this process computed → the modules it was asked for, so that a test can
# tell which modules a planned job's `code` param covers (tests/workflow/test_fingerprints.py).
NAMED: dict[str, tuple[str, ...]] = {}


# (ROOT, modules asked for) → (fingerprint, the files it read, their (mtime, size)): planning
# asks for the same few fingerprints once per job (a translation job's: per system), thousands
# of times in a large study; a file that changed since is read again.
_MEMO: dict[tuple, tuple[str, tuple[Path, ...], tuple[tuple[int, int], ...]]] = {}


def _stamps(files: tuple[Path, ...]) -> tuple[tuple[int, int], ...]:
    stats = [f.stat() for f in files]
    return tuple((st.st_mtime_ns, st.st_size) for st in stats)


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


@cache
def _content_digest(path: Path, stamp: tuple[int, int]) -> str | None:
    """sha256 of a file's :func:`normalized` source; None for a module with no statements
    of its own (a package's docstring-only ``__init__``)."""
    body = normalized(path.read_bytes())
    return hashlib.sha256(body).hexdigest() if body.strip() else None


def _finish(digest: str) -> str:
    return LEGACY.get(digest, digest)


def code_fingerprint(module: str, *more: str) -> str:
    """sha256 (16 hex digits) over the :func:`normalized` source of the modules ``module``
    (and ``more``, e.g. the backend a translation job loads by name) run, in no particular
    order and without their names; the legacy name of the same code where it has one."""
    return _finish(content_fingerprint(module, *more))


def content_fingerprint(module: str, *more: str) -> str:
    """:func:`code_fingerprint` without the legacy names."""
    key = (ROOT, module, *more)
    hit = _MEMO.get(key)
    if hit is not None and _stamps(hit[1]) == hit[2]:
        found = hit[0]
    else:
        names = sorted(set().union(*(modules_run_by(m) for m in (module, *more))))
        files = tuple(_file_of(name) for name in names)
        stamps = _stamps(files)
        found = digest_of([d for d in map(_content_digest, files, stamps) if d])
        _MEMO[key] = (found, files, stamps)
    NAMED[found] = NAMED[_finish(found)] = (module, *more)
    return found


def source_fingerprint(module: str) -> str:
    """The fingerprint of ``module``'s own source, not of what it imports (a stored format's
    reader: the backend helpers it calls are versioned by their backend's
    ``request_version``, and a new backend in the registry must not redo stored outputs)."""
    path = _file_of(module)
    if path is None:
        raise ValueError(f"{module}: no such gendermt module")
    digest = _content_digest(path, _stamps((path,))[0])
    found = digest_of([digest] if digest else [])
    NAMED[found] = NAMED[_finish(found)] = (module,)
    return found


def digest_of(module_digests: list[str]) -> str:
    """The fingerprint of modules whose :func:`normalized` sources have these sha256s."""
    return hashlib.sha256("\0".join(sorted(module_digests)).encode()).hexdigest()[:16]


def declared_fingerprint(*parts: object, legacy: bool = True) -> str:
    """A fingerprint of declared versions instead of code (a translation job's: the runner's
    and its backend's ``request_version``, as the request cache keys on them), so that no
    refactoring reruns translations paid for; a change to what they send bumps a version."""
    payload = json.dumps(parts, sort_keys=True, default=str)
    found = hashlib.sha256(payload.encode()).hexdigest()[:16]
    DECLARED[found] = DECLARED[_finish(found)] = parts
    return _finish(found) if legacy else found


# Each declared fingerprint this process computed → what it declares (tests/dag_params.py).
DECLARED: dict[str, tuple] = {}


#: content (or declared) fingerprint → the fingerprint the same code had before fingerprints
#: followed content (commit 0f5f3f3, the layout move's parent): tools/legacy_fingerprints.py
LEGACY: dict[str, str] = json.loads(
    (Path(__file__).with_name("legacy_fingerprints.json")).read_text(encoding="utf-8"))


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
