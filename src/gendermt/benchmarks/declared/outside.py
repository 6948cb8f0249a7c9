"""Declared benchmarks kept outside the project: a config block's ``file``
(``benchmarks.<name>.file``: the benchmark file, or the folder ``<name>/`` holding its
``benchmark.yaml``) adds the benchmark to those of ``resources/benchmarks/``.

The registry is read once per process, before the config is checked (the config schema
names every benchmark), so the workflow calls :func:`include` first, on the config as
Snakemake loaded it; the files go into the environment (:data:`ENV`), where the declared
contracts (``contract.declared_files``) find them in the workflow's process and in its jobs
(the scorecard job reads every benchmark's reader from the registry). Standard library only:
the contract imports this module, and the registry is read on every start-up."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gendermt.config.errors import GenderMTError

#: Benchmark files kept outside the project, absolute, joined by ``os.pathsep``.
ENV = "GENDERMT_DECLARED_BENCHMARKS"
#: A declared benchmark's file in its folder (the folder is named after the benchmark).
SPEC_FILE = "benchmark.yaml"
_CONTRACT = "gendermt.benchmarks.declared.contract"


def included() -> list[Path]:
    """The benchmark files :data:`ENV` names."""
    return [Path(p) for p in os.environ.get(ENV, "").split(os.pathsep) if p]


def file_of(name: str, given: Any) -> Path:
    """The benchmark file a block's ``file`` names (a folder: its ``benchmark.yaml``),
    absolute; relative paths are relative to the working directory, as every path of a
    config. One line naming the key where it is missing or misplaced."""
    key = f"benchmarks.{name}.file"
    if not isinstance(given, str) or not given.strip():
        raise GenderMTError(f"{key}: {given!r} is not a path (the benchmark file, or the "
                            f"folder {name}/ holding its {SPEC_FILE})")
    path = Path(os.path.abspath(Path(given).expanduser()))
    if path.is_dir():
        path = path / SPEC_FILE
    if not path.is_file():
        raise GenderMTError(f"{key}: {path} not found (the benchmark file, or the folder "
                            f"{name}/ holding its {SPEC_FILE}; a relative path is relative to "
                            f"the working directory {os.getcwd()})")
    if path.parent.name != name:
        raise GenderMTError(f"{key}: {path} is not in a folder named {name} (a declared "
                            f"benchmark's file is <name>/{SPEC_FILE}, its folder named after "
                            "its config key)")
    return path


def include(config: Mapping[str, Any]) -> list[Path]:
    """The benchmark files the config's blocks name (``file``), added to :data:`ENV` and
    read by the registry, before anything else reads it: one line naming the key for a
    missing file, and one line for a file whose heading is wrong (name, label, order) or
    whose name another benchmark has."""
    blocks = config.get("benchmarks")
    found = [file_of(name, block["file"])
             for name, block in (blocks.items() if isinstance(blocks, Mapping) else ())
             if isinstance(block, Mapping) and block.get("file") is not None]
    if not found:
        return []
    if _CONTRACT in sys.modules and not set(found) <= set(included()):
        raise GenderMTError(f"benchmarks: the registry was read before the benchmark files "
                            f"outside the project were included ({', '.join(map(str, found))})")
    os.environ[ENV] = os.pathsep.join(dict.fromkeys(map(str, [*included(), *found])))
    from gendermt.benchmarks import registry

    try:
        registry.names()  # each file's heading read and checked, each name once
    except GenderMTError as exc:
        raise GenderMTError(f"benchmarks: {exc}") from None
    return found
