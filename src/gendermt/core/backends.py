"""What each translation backend is, known without importing it: the config checks, the start-up
lookups and ``gendermt run`` read this, the translation jobs import the backend itself.

A backend declares itself in its own module (a file of ``gendermt/translation/backends/``): a
dict literal ``ABOUT`` at the module's top level, closed by a ``}`` alone on a line, with one
entry per backend the module implements::

    ABOUT = {
        "copy-source": {
            "class": "CopySource",           # the class, in this module
            "style": "offline",              # llm | source | rewriter | offline (below)
            "workload": "files",             # model | service | files (below)
            "cli_setting": None,             # the setting MODEL of BACKEND:MODEL fills
            "example": ("the source unchanged (the floor)",
                        "gendermt run --model copy-source: --benchmarks gambit"),
        },
    }

This module reads that block from the file's text (never importing the module: importing every
backend would cost start-up a tenth of a second and more, vLLM's pandas among them), so adding a
backend is its own file and its test, and no shared file names it.
"""

from __future__ import annotations

import ast
import importlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from gendermt.core.errors import GenderMTError

#: Where backends are found: (package, its folder); each module there with an ``ABOUT`` block.
SEARCHED: list[tuple[str, Path]] = [
    ("gendermt.translation.backends",
     Path(__file__).resolve().parents[1] / "translation" / "backends"),
]
#: How a system of the backend fits a benchmark's prompts (gendermt.config.own_system): an LLM
#: that reads the prompt's instructions, an MT system that reads the source only, a rewriter of
#: English text, or outputs given (stored files, a data column, the source).
STYLES = ("llm", "source", "rewriter", "offline")
#: What a job of the backend spends its memory and time on, which sizes its request on a
#: cluster (gendermt.workflow.job_size): ``model`` loads weights (sized from the model; the
#: default, so that a new backend is never under-sized), ``service`` waits on a remote API
#: (little memory, long), ``files`` reads files or runs a small local program.
WORKLOADS = ("model", "service", "files")
#: What a setting of ``files`` names (gendermt.workflow.system_files checks each at start-up).
FILE_KINDS = ("stored outputs", "model")
_OPENING = "ABOUT = {"


@dataclass(frozen=True)
class BackendInfo:
    """One backend, as its module declares it."""

    #: The ``backend`` name a system has in config.
    name: str
    #: The module that implements it, and its class there.
    module: str
    cls: str
    #: One of :data:`STYLES`.
    style: str = "llm"
    #: One of :data:`WORKLOADS`.
    workload: str = "model"
    #: The setting the MODEL of ``gendermt run --model BACKEND:MODEL`` fills (None: it takes no
    #: model; the settings come as ``--option``).
    cli_setting: str | None = None
    #: ``gendermt run --help``'s example: what it is, and a command.
    example: tuple[str, str] = ("", "")
    #: The settings that name a file the system needs beside the workflow's, checked at
    #: start-up: setting → ``stored outputs`` (a file per benchmark and prompt) or ``model``
    #: (a local model folder or GGUF file, where the setting names one rather than a Hub id).
    files: Mapping[str, str] = field(default_factory=dict)
    #: Whether ``gendermt run`` asks its model's tokenizer for every benchmark's languages
    #: (a multilingual NMT model) before anything runs.
    languages: bool = False


def read_about(path: Path) -> dict[str, dict[str, Any]]:
    """A module's ``ABOUT`` block, read from its text ({} for a module without one)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    try:
        start = lines.index(_OPENING)
        end = lines.index("}", start)
    except ValueError:
        return {}
    text = "\n".join(["{", *lines[start + 1:end + 1]])
    try:
        found = ast.literal_eval(text)
    except (ValueError, SyntaxError) as exc:
        raise GenderMTError(f"{path}: its ABOUT block is no plain literal ({exc})") from None
    if not isinstance(found, dict):
        raise GenderMTError(f"{path}: ABOUT is no dict of backend name → what it is")
    return found


def _info(name: str, module: str, about: Mapping[str, Any], path: Path) -> BackendInfo:
    known = {"class", "style", "workload", "cli_setting", "example", "files", "languages"}
    unknown = sorted(set(about) - known)
    if unknown or "class" not in about:
        raise GenderMTError(f"{path}: ABOUT[{name!r}] needs 'class' and may give "
                            f"{', '.join(sorted(known))}"
                            + (f" (not {', '.join(unknown)})" if unknown else ""))
    style = about.get("style", "llm")
    if style not in STYLES:
        raise GenderMTError(f"{path}: ABOUT[{name!r}]: style {style!r} is none of "
                            f"{', '.join(STYLES)}")
    workload = about.get("workload", "model")
    if workload not in WORKLOADS:
        raise GenderMTError(f"{path}: ABOUT[{name!r}]: workload {workload!r} is none of "
                            f"{', '.join(WORKLOADS)}")
    files = dict(about.get("files", {}))
    if not set(files.values()) <= set(FILE_KINDS):
        raise GenderMTError(f"{path}: ABOUT[{name!r}]: files name {', '.join(FILE_KINDS)} "
                            f"only, not {sorted(set(files.values()) - set(FILE_KINDS))}")
    return BackendInfo(name=name, module=module, cls=about["class"], style=style,
                       workload=workload,
                       cli_setting=about.get("cli_setting"),
                       example=tuple(about.get("example", ("", ""))),
                       files=files,
                       languages=bool(about.get("languages", False)))


@cache
def _declared(searched: tuple[tuple[str, Path], ...]) -> dict[str, BackendInfo]:
    found: dict[str, BackendInfo] = {}
    for package, folder in searched:
        for path in sorted(folder.glob("*.py")):
            module = package if path.stem == "__init__" else f"{package}.{path.stem}"
            for name, about in read_about(path).items():
                if name in found:
                    raise GenderMTError(f"backend {name!r} declared twice: in "
                                        f"{found[name].module} and {module}")
                found[name] = _info(name, module, about, path)
    return dict(sorted(found.items()))


def declared() -> dict[str, BackendInfo]:
    """Every backend, by name (sorted)."""
    return _declared(tuple(SEARCHED))


def names() -> list[str]:
    return list(declared())


def info(name: str) -> BackendInfo | None:
    """What a backend is (None for an unknown name, or one a test registered by its class)."""
    return declared().get(name)


class _Classes(dict):
    """``BACKENDS``: name → class, each imported on first use by its declared
    ``module:Class`` (tests add their own classes)."""

    def __missing__(self, name: str) -> type:
        found = info(name) if isinstance(name, str) else None
        if found is None:
            raise KeyError(name)
        cls = getattr(importlib.import_module(found.module), found.cls)
        self[name] = cls
        return cls

    def __contains__(self, name: object) -> bool:
        return dict.__contains__(self, name) or (isinstance(name, str) and info(name) is not None)

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(set(dict.keys(self)) | set(names())))

    def __len__(self) -> int:
        return len(set(dict.keys(self)) | set(names()))

    def keys(self):  # type: ignore[override]
        return list(iter(self))

    def get(self, name: str, default: Any = None) -> Any:  # type: ignore[override]
        return self[name] if name in self else default  # noqa: SIM401 (imports on demand)


#: Every backend's class by name (``gendermt.translation.backends.base.Backend``), imported
#: when a system names it: a translation job runs its own backend's module only.
BACKENDS: dict[str, type] = _Classes()


def backend_class(settings: Mapping[str, Any]) -> type:
    name = settings.get("backend")
    if name not in BACKENDS:
        raise GenderMTError(f"unknown backend {name!r}; available: {', '.join(sorted(BACKENDS))}")
    return BACKENDS[name]


def check_system(settings: Mapping[str, Any]) -> None:
    """Fail early (at workflow start-up) on an unknown backend or bad settings."""
    backend_class(settings).check_settings(settings)


def system_kind(settings: Mapping[str, Any]) -> str:
    """``model``, ``baseline`` or ``oracle``: the system's ``kind`` in config, else its
    backend's (reference oracles are oracles, copy-source a baseline, the rest models)."""
    if "kind" in settings:
        return str(settings["kind"])
    cls = BACKENDS.get(settings.get("backend", ""))
    return cls.default_kind if cls else "model"
