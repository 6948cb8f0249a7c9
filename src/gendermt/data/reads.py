"""What a data stage read, checked as it was read: the sha256 of the very bytes it parsed.

Start-up checks every data file (a declared one against its manifest) and plans each data
stage with its files' hashes (``data_sources`` params); but a file can change between
start-up and the job that reads it (a write through a hard link, a hand edit, a sync). So
the readers of :mod:`gendermt.data.textfiles` hand each file's bytes to :func:`note` as they
read them. Inside :func:`checking` (a data stage's script), the hash is taken from the same
bytes the parser gets (one read: a second pass could see other bytes) and compared with what
start-up checked: a difference stops the stage, naming the file and both hashes, before
anything is built from it. The hashes taken are what the stage's data.json records
(:func:`identity`, :func:`read_datasets`).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from gendermt.core.errors import GenderMTError


def _key(path: str | os.PathLike) -> str:
    # absolute, not resolved: the data cache's layout (<name>/<commit>/<file>) stays visible
    return os.path.abspath(path)


@dataclass
class Ledger:
    """The hashes a stage's files must have (path → sha256, and why), and those read."""

    expected: dict[str, tuple[str, str]] = field(default_factory=dict)
    read: dict[str, tuple[int, str]] = field(default_factory=dict)  # path → size, sha256

    def note(self, path: str | os.PathLike, data: bytes) -> None:
        """``data``, just read from ``path``: hashed, recorded, and checked."""
        key = _key(path)
        actual = hashlib.sha256(data).hexdigest()
        want = self.expected.get(key)
        if want and want[0] != actual:
            raise GenderMTError(
                f"data file {path}: sha256 {actual}, expected {want[0]} ({want[1]}); it "
                "changed after start-up checked it, so nothing was built from it: run again "
                "to check it anew (a data-cache file that no longer matches its manifest is "
                "then named: delete it to fetch it again)")
        self.read[key] = (len(data), actual)


_LEDGER: ContextVar[Ledger | None] = ContextVar("gendermt_reads", default=None)


def note(path: str | os.PathLike, data: bytes) -> None:
    """Called by every reader with the bytes it read (nothing outside a ledger)."""
    ledger = _LEDGER.get()
    if ledger is not None:
        ledger.note(path, data)


@contextlib.contextmanager
def recording() -> Iterator[Ledger]:
    """The active ledger, or a new one without expectations for the block (a stage's
    ``build`` records what it read, whether or not its script checks it)."""
    ledger = _LEDGER.get()
    if ledger is not None:
        yield ledger
        return
    token = _LEDGER.set(ledger := Ledger())
    try:
        yield ledger
    finally:
        _LEDGER.reset(token)


def _in_cache(key: str, record: dict, file: str) -> bool:
    """Whether ``key`` is ``file`` of the data set ``record`` in the data cache
    (``<cache>/<name>/<commit>/<file>``, gendermt.data.datasets.cache_folder)."""
    tail = (record["dataset"], record["commit"], *PurePosixPath(file).parts)
    return Path(key).parts[-len(tail):] == tail


@contextlib.contextmanager
def checking(data_sources: list[dict], datasets: list[dict] | None = None
             ) -> Iterator[Ledger]:
    """A data stage's reads held to its planned hashes (``data_sources``: the path, size and
    sha256 of each file, as start-up hashed them) and, for a declared data set's file, to
    its manifest's (``datasets``: gendermt.data.datasets.read_by)."""
    expected = {_key(s["path"]): (s["sha256"], "its hash when the run started")
                for s in data_sources if s.get("path") and s.get("sha256")}
    for record in datasets or []:
        for f in record["files"]:
            for key in expected:
                if _in_cache(key, record, f["file"]):
                    expected[key] = (f["sha256"], f"the manifest's, data set {record['dataset']}")
    token = _LEDGER.set(ledger := Ledger(expected))
    try:
        yield ledger
    finally:
        _LEDGER.reset(token)


def identity(path: str | os.PathLike) -> dict:
    """``{path, size, sha256}`` of a file as the active ledger read it; a file not read yet
    is read now (through the ledger, so it is checked as well)."""
    ledger = _LEDGER.get()
    key = _key(path)
    if ledger is None or key not in ledger.read:
        data = Path(path).read_bytes()
        note(path, data)
        size, sha = len(data), hashlib.sha256(data).hexdigest()
    else:
        size, sha = ledger.read[key]
    return {"path": str(path), "size": size, "sha256": sha}


def read_datasets(datasets: list[dict], ledger: Ledger) -> list[dict]:
    """``datasets`` (a stage's params) with each file's size and sha256 those of the bytes
    the stage read; a file it did not read is left out (it is no source of the results)."""
    found = []
    for record in datasets:
        files = []
        for f in record["files"]:
            read = next((v for k, v in ledger.read.items() if _in_cache(k, record, f["file"])),
                        None)
            if read is not None:
                files.append({**f, "size": read[0], "sha256": read[1]})
        if files:
            found.append({**record, "files": files})
    return found
