"""A job's ``code`` param: the declared versions of the stages it runs, not its imports.

Every stage (a module a rule's script calls into, a backend module a job builds, a stored
format's reader, the translation runner) declares its version in ``stage_versions.json``
beside this module. A rule passes ``stage_code(<its stage module>, ...)`` as its ``code`` param,
so that bumping a stage's version reruns exactly the jobs that run it, and nothing else does:
adding a field to the benchmark contract, a backend to the registry, moving or refactoring a
module. The same file locks each stage's code (the sha256 of what it runs, its imports
followed): ``tools/stage_lock.py`` (``make stage-lock``) and the unit test of the same name fail
when a stage's code changes without a version bump or an explicit "behaviour unchanged" entry,
so that no change to what a stage writes goes unnoticed. Nothing here parses code: a
workflow's start-up reads two small JSON files.

Version 1 of a combination of stages is the fingerprint commit c0d773e gave it (the table
``stage_versions_v1.json``, made by ``tools/stage_versions_v1.py``), so that results made
before versions were declared stay current.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
VERSIONS = HERE / "stage_versions.json"
V1 = HERE / "stage_versions_v1.json"

#: The stage name of the translation runner (gendermt.translation.runner and what it calls):
#: bump its version when a change alters what a translation job writes.
RUNNER = "gendermt.translation.runner"


@cache
def _versions() -> dict[str, int]:
    stages = json.loads(VERSIONS.read_text(encoding="utf-8"))["stages"]
    return {name: int(entry["version"]) for name, entry in stages.items()}


@cache
def _v1() -> dict[str, str]:
    return json.loads(V1.read_text(encoding="utf-8"))


def version_of(stage: str) -> int:
    """A stage's declared version (1 for one not declared yet: the lock test names it)."""
    return _versions().get(stage, 1)


def key_of(stages: list[str] | tuple[str, ...]) -> str:
    """The migration table's key of a ``code`` param naming these stages."""
    return " ".join(sorted(set(stages)))


def translation_key(backend: str, request_version: int, readers: list[str]) -> str:
    """The migration table's key of a translation job's ``code`` param."""
    return f"translation {backend} request@{request_version} " + " ".join(sorted(readers))


#: Each ``code`` param this process computed → what it declares (tests/dag_params.py).
NAMED: dict[str, tuple[str, ...]] = {}
DECLARED: dict[str, tuple[Any, ...]] = {}


def _declared(stages: list[str]) -> tuple[list[int], str]:
    versions = [version_of(s) for s in stages]
    return versions, " ".join(f"{s}@{v}" for s, v in zip(stages, versions, strict=True))


def stage_code(stage: str, *more: str) -> str:
    """The ``code`` param of a job that runs ``stage`` (and ``more``: a backend it builds, a
    module it loads by name): their declared versions; version 1 of all of them is the
    fingerprint c0d773e gave the same combination, where it had one."""
    stages = sorted({stage, *more})
    versions, declared = _declared(stages)
    found = _v1().get(key_of(stages)) if set(versions) == {1} else None
    found = found or declared
    NAMED[found] = tuple(stages)
    return found


def translation_code(backend: str, request_version: int, readers: list[str]) -> str:
    """A translation job's ``code`` param: the runner's version, the backend's
    ``request_version`` (the request cache keys on it too) and the versions of the readers
    the backend loads by name (a stored format's), so that no refactoring reruns a
    translation paid for."""
    stages = [RUNNER, *sorted(readers)]
    versions, declared = _declared(stages)
    found = (_v1().get(translation_key(backend, request_version, readers))
             if set(versions) == {1} else None)
    found = found or f"translation {backend} request@{request_version} {declared}"
    DECLARED[found] = ("translation", backend, request_version, tuple(stages))
    return found
