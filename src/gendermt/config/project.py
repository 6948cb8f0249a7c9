"""Where the project's own files are: the workflow (Snakefile, rules, scripts, schemas,
report captions, envs, profiles), its configs and its shipped data (``resources/``).

In a checkout (an editable install included) they are the checkout's, beside ``src/``; in a
wheel they are the copy the build put inside the package (``gendermt/_project/``, the same
layout: setup.py's build_py). Every place that finds one of them asks :func:`root`, so that
an installed ``gendermt`` finds its benchmarks and workflow without a checkout.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from gendermt.core.errors import GenderMTError

#: The package's folder (``src/gendermt`` in a checkout).
PACKAGE = Path(__file__).resolve().parents[1]
#: The packaged copy's folder name inside the package.
PACKAGED = "_project"
#: Config paths that name the project's own files (relative to its root); in a config they
#: are written as from the checkout's root. ``src/gendermt/`` is the package wherever it is.
PROJECT_PREFIXES = ("resources/", "config/", "workflow/", "profiles/", "envs/")
PACKAGE_PREFIX = "src/gendermt/"


@cache
def root() -> Path:
    """The project's root: the checkout holding this package's ``src/``, else the copy
    packaged in the wheel (else the folder above ``src/``, as before there was a wheel: what
    needs a file there says which is missing)."""
    checkout = PACKAGE.parents[1]
    if PACKAGE.parent.name == "src" and (checkout / "Snakefile").is_file():
        return checkout
    packaged = PACKAGE / PACKAGED
    if (packaged / "Snakefile").is_file():
        return packaged
    return checkout


def workflow_root() -> Path:
    """:func:`root`, where it holds the workflow (its Snakefile); else one line saying how to
    get one."""
    found = root()
    if not (found / "Snakefile").is_file():
        raise GenderMTError(f"gendermt at {PACKAGE} has neither a checkout around it nor its "
                            f"packaged workflow ({PACKAGE / PACKAGED}); install a wheel built "
                            "from a checkout (`pip wheel --no-deps .`) or use the checkout")
    return found


def is_checkout() -> bool:
    return root() != PACKAGE / PACKAGED


def project_file(relative: str | Path) -> Path:
    """A path as written from the checkout's root (``resources/...``, ``src/gendermt/...``),
    where it is in this installation."""
    text = Path(relative).as_posix()
    if text.startswith(PACKAGE_PREFIX):
        return PACKAGE / text[len(PACKAGE_PREFIX):]
    return root() / text


def names_project_file(value: str) -> bool:
    """Whether a config value is a path into the project's own files (as the shipped configs
    write them): it starts with one of their folders and that folder holds its first part."""
    if not value.startswith((PACKAGE_PREFIX, *PROJECT_PREFIXES)):
        return False
    static = value.split("{", 1)[0]
    head = static.rsplit("/", 1)[0] if "/" in static else static
    return project_file(head).exists()
