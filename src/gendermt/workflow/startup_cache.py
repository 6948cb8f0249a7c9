"""Results of start-up work memoised on disk by the content of the file they came from.

Every ``snakemake`` call plans from scratch: it validates reference files named in the
config and has Snakemake parse the rule files (:mod:`gendermt.workflow.snakemake_overrides`).
Each depends only on a file's bytes (and the code doing the work), so their results are kept
in one JSON file under ``.snakemake/gendermt/``, keyed by ``(kind, sha256 of the bytes)``: an
edited file misses the cache and is worked out again, whatever its mtime. Hashing a file costs
far less than parsing or validating it.

Off until :func:`enable` names the file (the workflow does, in ``common.smk``); then it is
written once, at exit, only when something was added. A missing, unreadable or foreign file
is an empty cache, never an error.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
from pathlib import Path
from typing import Any

VERSION = 1
_store: dict[str, Any] = {}
_path: Path | None = None
_dirty = False


def enable(path: str | Path) -> None:
    """Use (and at exit update) the cache file ``path``."""
    global _path, _store
    _path = Path(path)
    try:
        loaded = json.loads(_path.read_text(encoding="utf-8"))
        _store = loaded["entries"] if loaded.get("version") == VERSION else {}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        _store = {}
    atexit.register(save)


def enabled() -> bool:
    return _path is not None


def content_key(kind: str, data: bytes) -> str:
    return f"{kind}:{hashlib.sha256(data).hexdigest()}"


def get(key: str) -> Any:
    """The value stored under ``key``, or None (also when the cache is off)."""
    return _store.get(key) if _path is not None else None


def put(key: str, value: Any) -> None:
    global _dirty
    if _path is not None and _store.get(key) != value:
        _store[key] = value
        _dirty = True


def save() -> None:
    """Write the cache (whole, then renamed into place: never half-written)."""
    global _dirty
    if _path is None or not _dirty:
        return
    try:
        _path.parent.mkdir(parents=True, exist_ok=True)
        tmp = _path.with_name(f"{_path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"version": VERSION, "entries": _store}), encoding="utf-8")
        os.replace(tmp, _path)
        _dirty = False
    except OSError:  # a read-only checkout plans as before, only slower next time
        pass
