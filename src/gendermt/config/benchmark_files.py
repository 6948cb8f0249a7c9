"""Benchmarks kept outside the project: a config block's ``file``
(``benchmarks.<name>.file``: the benchmark's file, or the folder ``<name>/`` holding its
``benchmark.yaml``) adds a benchmark declared in one file to those of the project
(gendermt.benchmarks.declared, docs/declared-benchmarks.md).

The registry is read once per process, before the config is checked (the config schema
names every benchmark), so the workflow calls :func:`include` first, on the config as
Snakemake loaded it; the files go into the environment (:data:`ENV`), where the declared
benchmarks' contracts find them, in the workflow's process and in its jobs (the scorecard
job reads every benchmark's reader from the registry). Standard library only: a contract
imports this module, and the registry is read on every start-up."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gendermt.core.errors import GenderMTError

#: Benchmark files kept outside the project, absolute, joined by ``os.pathsep``.
ENV = "GENDERMT_BENCHMARK_FILES"
#: A benchmark's file in its folder (the folder is named after the benchmark).
SPEC_FILE = "benchmark.yaml"


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
        raise GenderMTError(f"{key}: {path} is not in a folder named {name} (a benchmark's "
                            f"file is <name>/{SPEC_FILE}, its folder named after its config "
                            "key)")
    return path


def include(config: Mapping[str, Any]) -> list[Path]:
    """The benchmark files the config's blocks name (``file``), added to :data:`ENV` and
    read by the registry, before anything else reads it: one line naming the key for a
    missing file, and one line for a file whose heading is wrong (name, label, order) or
    whose name another benchmark has."""
    blocks = config.get("benchmarks")
    found = {name: file_of(name, block["file"])
             for name, block in (blocks.items() if isinstance(blocks, Mapping) else ())
             if isinstance(block, Mapping) and block.get("file") is not None}
    if not found:
        return []
    os.environ[ENV] = os.pathsep.join(dict.fromkeys(map(str, [*included(),
                                                              *found.values()])))
    from gendermt.core import registry

    try:
        known = registry.names()  # each file's heading read and checked, each name once
    except GenderMTError as exc:
        raise GenderMTError(f"benchmarks: {exc}") from None
    late = [name for name in found if name not in known]
    if late:  # this process read the registry before (it is read once)
        raise GenderMTError(f"benchmarks.{late[0]}.file: the registry was read before the "
                            "benchmark files outside the project were included")
    return list(found.values())
