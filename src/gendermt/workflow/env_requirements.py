"""Which third-party packages a workflow rule's code imports, and whether its env file has them.

Snakemake puts the launching environment on each job's path, so a rule whose ``conda:`` env
file lacks a package still runs from a full virtualenv; only ``--software-deployment-method
conda`` shows it. This module reads imports without importing anything (as
:mod:`gendermt.workflow.import_graph` does for gendermt's own modules) and names what an env
file must pin. Used by tests/workflow/test_env_imports.py and tools/envs_check.py.

The rule for an import (``import x`` / ``from x import y``, at module level or inside a
function, since a lazy import runs too when its function is called):

* required, unless one of the two cases below;
* optional, when it sits in a ``try:`` whose ``except ImportError`` (or
  ``ModuleNotFoundError``) handler carries on without raising: the code has a fallback
  (``scoring/cli.py``'s GPU count without torch), so the env need not provide it. A handler
  that raises only words the error better ("install X"): the import is still required;
* not at run time, under ``if TYPE_CHECKING:``.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import yaml

from gendermt.workflow.import_graph import _file_of, imported_by, modules_run_by

#: Import name → PyPI distribution, where they differ beyond ``_`` vs ``-`` and case.
DISTRIBUTION_OF: dict[str, str] = {
    "yaml": "pyyaml",
    "sklearn": "scikit-learn",
    "PIL": "pillow",
    "cv2": "opencv-python",
    "attr": "attrs",
    "dateutil": "python-dateutil",
    "comet": "unbabel-comet",
    "google": "protobuf",
    "llama_cpp": "llama-cpp-python",
    "azure": "azure-ai-translation-text",  # microsoft-translator (azure.core comes with it)
}

#: conda-forge package → PyPI distribution, where they differ (the env check builds from
#: PyPI: conda channels are not reachable here). ``None``: not a Python package to install.
PYPI_OF_CONDA: dict[str, str | None] = {
    "python": None,
    "pip": None,
    "pytorch": "torch",
    "matplotlib-base": "matplotlib",
    "py-opencv": "opencv-python",
}

#: Imports an env file need not provide, and why. Anything else a rule's code requires must be
#: pinned in the rule's env file.
NOT_FROM_ENV: dict[str, str] = {
    "snakemake": "Snakemake appends its own package's folder to every script job's sys.path "
                 "(the job unpickles its `snakemake` object with it)",
    "openpyxl": "only for a user's .xlsx gENder-IT table; gendermt does not install it and "
                "conga/data.py says so in one line (convert to CSV)",
}

#: Backends whose jobs run in an environment of their own, not the rule's env file
#: (translate.yaml says so): rules that load backends by name need the others.
OWN_ENV_BACKENDS = {"vllm"}

#: Rules whose jobs build a backend by name (a translation system, a GAMBIT judge, a ConGA
#: annotator): their env must serve every backend but those with an environment of their own.
BACKEND_RULES = {"translate", "translate_sources", "conga_annotate", "gambit_detect",
                 "gambit_validate"}


# rules whose jobs apply a benchmark's hypothesis normaliser (scoring/normalization.py)
NORMALIZING_RULES = ("score", "comet")


def loaded_by_name(rule: str) -> list[str]:
    """The gendermt modules a rule's jobs import by name, invisible to the imports: every
    backend (:data:`BACKEND_RULES`), the scorecard's readers, the contracts' hypothesis
    normalisers."""
    if rule in BACKEND_RULES:
        from gendermt.core import backends

        return sorted({b.module for n, b in backends.declared().items()
                       if n not in OWN_ENV_BACKENDS})
    if rule == "scorecard":
        from gendermt.scorecard.figures import reader_modules

        return reader_modules()
    if rule in NORMALIZING_RULES:
        from gendermt.scoring.normalization import normalizers

        return sorted({ref.partition(":")[0] for ref in normalizers().values()})
    return []


_IMPORT_ERRORS = {"ImportError", "ModuleNotFoundError", "Exception", "BaseException"}


def canonicalize_name(name: str) -> str:
    """PyPI's normal form of a distribution name (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(line: str) -> str:
    """The distribution a requirement line (``name==1.0``, ``name[extra]>=2``) names."""
    found = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", line)
    if not found:
        raise ValueError(f"not a requirement: {line!r}")
    return found.group(1)


def distribution_of(import_name: str) -> str:
    """The canonical PyPI name of the distribution that provides top-level ``import_name``."""
    return canonicalize_name(DISTRIBUTION_OF.get(import_name, import_name))


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    if handler.type is None:
        return True
    names = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(isinstance(n, ast.Name) and n.id in _IMPORT_ERRORS for n in names)


def _falls_back(node: ast.Try) -> bool:
    """A ``try`` whose import-error handler carries on (no ``raise`` in it)."""
    handlers = [h for h in node.handlers if _catches_import_error(h)]
    return bool(handlers) and not any(isinstance(n, ast.Raise)
                                      for h in handlers for n in ast.walk(h))


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports_of_file(path: str | Path) -> dict[str, bool]:
    """Third-party top-level names ``path`` imports → required (True) or optional (False)."""
    found: dict[str, bool] = {}
    _visit_imports(ast.parse(Path(path).read_text(encoding="utf-8")), False, found)
    return found


def _statement_imports(node: ast.AST) -> list[str]:
    """The module names an import statement names (none for a relative import)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if isinstance(node, ast.ImportFrom) and not node.level and node.module:
        return [node.module]
    return []


def _visit_imports(node: ast.AST, optional: bool, found: dict[str, bool]) -> None:
    """Add the third-party top-level names ``node`` and its children import to ``found``
    (required unless ``optional``: in a ``try`` that carries on without them)."""
    if isinstance(node, ast.If) and _is_type_checking(node):
        for child in node.orelse:
            _visit_imports(child, optional, found)
        return
    if isinstance(node, ast.Try) and _falls_back(node):
        for child in node.body:
            _visit_imports(child, True, found)
        for child in [*node.handlers, *node.orelse, *node.finalbody]:
            _visit_imports(child, optional, found)
        return
    for name in _statement_imports(node):
        top = name.split(".")[0]
        if top in sys.stdlib_module_names or top in ("__future__", "gendermt"):
            continue
        found[top] = found.get(top, False) or not optional
    for child in ast.iter_child_nodes(node):
        _visit_imports(child, optional, found)


def imports_of_modules(modules: list[str]) -> dict[str, dict[str, bool]]:
    """Third-party name → {gendermt module or file that imports it: required?} over
    ``modules`` (gendermt module names or script paths) and every gendermt module they reach."""
    files: dict[str, Path] = {}
    for module in modules:
        if module.endswith(".py"):  # a workflow script: it and the gendermt modules it reaches
            files[Path(module).name] = Path(module)
            reached = [m for name in imported_by(module) for m in modules_run_by(name)]
        else:
            reached = modules_run_by(module)
        files.update((m, _file_of(m)) for m in reached)
    out: dict[str, dict[str, bool]] = {}
    for name, path in files.items():
        for top, required in imports_of_file(path).items():
            out.setdefault(top, {})[name] = required
    return out


def env_packages(env_file: str | Path) -> dict[str, str]:
    """An env file's packages, PyPI name (canonical) → requirement as pinned: its pip list, and
    its conda dependencies mapped to PyPI names (``python`` and ``pip`` are not packages)."""
    spec = yaml.safe_load(Path(env_file).read_text(encoding="utf-8"))
    out: dict[str, str] = {}
    for dep in spec.get("dependencies") or []:
        if isinstance(dep, dict):
            for line in dep.get("pip") or []:
                out[canonicalize_name(requirement_name(line))] = line.strip()
            continue
        name = requirement_name(str(dep))
        pypi = PYPI_OF_CONDA.get(name, name)
        if pypi is not None:
            spec = str(dep)[len(name):].strip()
            # conda's `name=1.2` (one `=`) is pip's `==1.2`
            spec = "=" + spec if spec.startswith("=") and not spec.startswith("==") else spec
            out[canonicalize_name(pypi)] = pypi + spec
    return out


def missing_packages(rule: str, modules: list[str], env_file: str | Path) -> list[str]:
    """One line per required third-party import of ``modules`` (see
    :func:`imports_of_modules`) that ``env_file`` does not provide: [] if none."""
    provided = env_packages(env_file)
    out = []
    for top, importers in sorted(imports_of_modules(modules).items()):
        needed_by = sorted(m for m, required in importers.items() if required)
        package = distribution_of(top)
        if needed_by and package not in provided and top not in NOT_FROM_ENV:
            out.append(f"rule {rule}: {', '.join(needed_by)} imports {top!r}, which "
                       f"{Path(env_file).name} does not provide: add {package}==<version> to "
                       f"its pip list (and to pyproject.toml)"
                       + (f"; if {top!r} is not that package's import name, map it in "
                          "gendermt.workflow.env_requirements.DISTRIBUTION_OF"
                          if top not in DISTRIBUTION_OF else ""))
    return out
