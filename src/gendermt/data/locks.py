"""Hashes taken on first use ("trust on first use") of a Hub data set's files whose sha256 its
manifest does not give: Neo-GATE at its pinned revision (the Hub publishes no hashes of it), a
revision a user gives instead (``data_sources.revisions``), FairTranslate at the revision its
user gives (none was found).

The first fetch of such a revision takes each file's size and sha256 and writes them to two
lock files: ``results/<run>/datasets.lock.json`` (the run's, beside its results; every such
data set of the run) and ``<cache>/<name>/<revision>.lock.json`` (the data cache's, beside the
data set's folder, never in it: a data stage hashes whole folders). Every later start-up checks
the files against them, as against a manifest's hashes: a file that changed at the same
revision stops the run, naming the file and both hashes. The two locks must agree; a run
lock that lacks an entry takes it from the cache's (another run fetched it first) and the
other way round. A lock is never an input of a job: the hashes it holds reach the data stages
as their params (their files' sha256), so an unchanged lock reruns nothing.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from gendermt.core.errors import GenderMTError

log = logging.getLogger(__name__)

#: What a run records of such hashes (the run summary, data.json): where they come from.
TRUST_ON_FIRST_USE = "trust on first use"
#: The run's lock, in ``results/<run>/``.
RUN_LOCK = "datasets.lock.json"
NOTE = ("sha256 of Hub data files whose hashes no manifest gives, taken at their first fetch "
        "(trust on first use; gendermt.data.locks); later runs are checked against them. "
        "Delete an entry (here and in the data cache's <name>/<revision>.lock.json) only to "
        "accept changed files.")


def cache_lock(cache: str | Path, name: str, commit: str) -> Path:
    """The data cache's lock of data set ``name`` at ``commit``."""
    return Path(cache) / name / f"{commit}.lock.json"


@dataclass
class Lock:
    """The locks of one data set at one revision and the hashes they hold (file → entry)."""

    name: str
    commit: str
    paths: list[Path]  # the run's lock (when there is a run), then the data cache's
    held: dict[Path, dict[str, dict]]  # lock → its entry's files ({} where it has none)
    first_use: str = ""  # the date of the first fetch, as the locks record it

    @property
    def recorded(self) -> dict[str, dict]:
        """Every file's recorded entry (the locks agree where both hold one)."""
        found: dict[str, dict] = {}
        for files in self.held.values():
            for file, entry in files.items():
                found.setdefault(file, entry)
        return found

    @property
    def shown(self) -> str:
        """The lock named in messages and records: the run's where there is one."""
        return str(self.paths[0])


def _read(path: Path, name: str, commit: str) -> tuple[dict[str, dict], str]:
    """The files ``path`` records for ``name`` at ``commit`` ({} where it has none) and the
    date of their first use."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        entry = data["datasets"].get(name)
        if not entry or entry.get("revision") != commit:
            return {}, ""
        return {str(f["file"]): f for f in entry["files"]}, str(entry.get("first_use", ""))
    except FileNotFoundError:
        return {}, ""
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise GenderMTError(f"{path}: not a readable data lock ({type(exc).__name__}: {exc}); "
                            "delete it to take the hashes anew (their first use again)"
                            ) from None


def open_lock(name: str, commit: str, cache: str | Path, run_dir: str | Path | None) -> Lock:
    """The locks of ``name`` at ``commit``; two that disagree on a file stop, naming it."""
    paths = ([Path(run_dir) / RUN_LOCK] if run_dir is not None else []) + [
        cache_lock(cache, name, commit)]
    held, first = {}, ""
    for path in paths:
        held[path], date = _read(path, name, commit)
        first = first or date
    lock = Lock(name, commit, paths, held, first)
    if len(paths) == 2:
        run, cached = held[paths[0]], held[paths[1]]
        for file in sorted(set(run) & set(cached)):
            if run[file]["sha256"] != cached[file]["sha256"]:
                raise GenderMTError(
                    f"data set {name!r} at revision {commit}: {file} has sha256 "
                    f"{run[file]['sha256']} in {paths[0]} but {cached[file]['sha256']} in "
                    f"{paths[1]} (both taken on first use); keep the lock of the files you "
                    "trust and delete the other; nothing was run")
    return lock


def expected(manifest: Any, lock: Lock) -> Any:
    """``manifest`` with the size and sha256 the locks hold for each file it gives none
    (a file neither gives stays unknown: its hash is taken now)."""
    recorded = lock.recorded
    files = tuple(
        replace(f, size=int(recorded[f.file]["size"]), sha256=str(recorded[f.file]["sha256"]))
        if not f.sha256 and f.file in recorded else f for f in manifest.files)
    return replace(manifest, files=files)


def settle(manifest: Any, unknown: set[str], folder: Path, lock: Lock,
           hash_of: Callable[[Path], tuple[int, str]]) -> tuple[Any, bool]:
    """After the files are in ``folder``: ``manifest`` with every hash (those of ``unknown``
    files taken now), and whether any was taken now (a first use). Each lock that lacks an
    entry gets it."""
    recorded = lock.recorded
    files = []
    for f in manifest.files:
        if f.file in unknown and f.file not in recorded:
            size, sha = hash_of(folder / f.file)
            f = replace(f, size=size, sha256=sha)
        files.append(f)
    first = any(f in unknown and f not in recorded for f in unknown)
    settled = replace(manifest, files=tuple(files))
    if first and not lock.first_use:
        lock.first_use = dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat()
    entry = {"repository": manifest.repository, "revision": lock.commit,
             "hashes": TRUST_ON_FIRST_USE, "first_use": lock.first_use,
             "files": [{"file": f.file, "path": f.path, "size": f.size, "sha256": f.sha256}
                       for f in settled.files if f.file in unknown]}
    want = {f["file"]: f for f in entry["files"]}
    for path in lock.paths:
        if lock.held[path] != want:
            _write(path, lock.name, entry, run=path.name == RUN_LOCK)
    return settled, first


def _write(path: Path, name: str, entry: dict, run: bool) -> None:
    """``entry`` into the lock at ``path`` (its other data sets kept), atomically. The data
    cache may be read-only (a lab's shared copy): its lock is then left unwritten."""
    try:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            datasets = dict(data.get("datasets") or {})
        except (OSError, ValueError, AttributeError):
            datasets = {}
        datasets[name] = entry
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"note": NOTE, "datasets": dict(sorted(datasets.items()))},
                                  indent=2) + "\n", encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        if run:
            raise GenderMTError(f"cannot write the data lock {path} ({exc}); the run's "
                                "results folder must be writable") from None
        log.warning("data cache lock %s not written (%s): the run's lock holds the hashes",
                    path, exc)
