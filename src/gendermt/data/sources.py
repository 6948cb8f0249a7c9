"""The data files and folders a config names: that they exist, and what they are.

The workflow checks at start-up that every configured data file or folder exists
(:func:`check_sources`), so that a study config whose data is absent stops naming the config
key and the path instead of planning a study on whatever an earlier run left in its results.
Each data stage receives :func:`identity` of its sources as a param (path, size, sha256; or
Hub id and revision), so that a change of source reruns the stage and everything after it.
Hashing is memoised by (path, size, mtime, ctime, inode), so a large file is hashed once,
not at every start-up.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gendermt.config import project
from gendermt.core import registry
from gendermt.core.errors import GenderMTError

PROJECT = project.root()  # the checkout, or the copy packaged in the wheel
SAMPLES = PROJECT / "resources"  # data the project writes itself

# Per benchmark (its contract's data_keys): the config keys (dotted, `*` any key, trailing `/`
# a folder) of the files and folders its block names; and the keys whose files its data stage
# reads (its identity param; the rest are read by later stages, which list them as inputs).
DATA_KEYS: dict[str, list[str]] = {b.name: list(b.data_keys) for b in registry.benchmarks()}
DATA_STAGE_KEYS: dict[str, list[str]] = {b.name: list(b.data_stage_keys)
                                         for b in registry.benchmarks()}


@dataclass(frozen=True)
class Source:
    """One configured file or folder: where in the config, where on disk."""

    key: str  # e.g. benchmarks.neogate.data.test
    path: str
    folder: bool = False

    @property
    def sample(self) -> bool:
        """Whether this is data the project ships (resources/), not the published data."""
        return is_sample(self.path)


def is_sample(path: str | Path) -> bool:
    try:
        Path(path).resolve().relative_to(SAMPLES)
    except ValueError:
        return False
    return True


def _walk(node: Any, parts: list[str], key: str):
    if not parts:
        if isinstance(node, str):
            yield key, node
        return
    head, rest = parts[0], parts[1:]
    if not isinstance(node, dict):
        return
    items = node.items() if head == "*" else [(head, node.get(head))]
    for name, value in items:
        if value is not None:
            yield from _walk(value, rest, f"{key}.{name}")


def sources_of(benchmark: str, spec: dict, keys: dict[str, list[str]] = DATA_KEYS
               ) -> list[Source]:
    """The configured files and folders of one benchmark's block, in the order of ``keys``."""
    found = []
    for pattern in keys.get(benchmark, []):
        folder = pattern.endswith("/")
        for key, path in _walk(spec, pattern.rstrip("/").split("."), f"benchmarks.{benchmark}"):
            found.append(Source(key, path, folder))
    return found


def configured_sources(config: dict) -> list[Source]:
    """Every configured data file and folder of every benchmark."""
    return [s for name, spec in config.get("benchmarks", {}).items()
            for s in sources_of(name, spec)]


def check_sources(config: dict) -> None:
    """Stop, naming each config key and path, if a configured file or folder does not exist."""
    missing = []
    for source in configured_sources(config):
        path = Path(source.path)
        if source.folder and not path.is_dir():
            missing.append(f"  {source.key}: {source.path} (a folder) does not exist")
        elif not source.folder and not path.exists():
            missing.append(f"  {source.key}: {source.path} does not exist")
    if missing:
        raise GenderMTError(
            "configured data not found (nothing was run):\n" + "\n".join(missing) + "\n"
            "Put the data at these paths or point the keys at it (README, \"Study configs\" "
            "says where to get each dataset); paths are relative to the working directory "
            f"({os.getcwd()})."
        )


# --- identity ----------------------------------------------------------------------------
MEMO = Path(".snakemake") / "gendermt" / "sha256.json"


def _load_memo(memo: Path) -> dict:
    try:
        return json.loads(memo.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _save_memo(memo: Path, entries: dict) -> None:
    # atomic: concurrent start-ups (SLURM job steps parse the workflow too) each write a whole
    # file, and every entry is correct, so the last writer winning loses nothing that matters
    try:
        memo.parent.mkdir(parents=True, exist_ok=True)
        tmp = memo.with_name(f"{memo.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(entries, indent=0, sort_keys=True), encoding="utf-8")
        os.replace(tmp, memo)
    except OSError:
        pass  # a read-only working directory: hash again next time


def sha256_file(path: str | Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class Hasher:
    """sha256 of files, memoised on disk by (real path, size, mtime, ctime, inode)."""

    def __init__(self, memo: Path | None = MEMO) -> None:
        self.memo = memo
        self.entries = _load_memo(memo) if memo else {}
        self.hashed = 0  # files actually read (for tests and benchmarks)
        self._dirty = False

    def __call__(self, path: str | Path) -> tuple[int, str]:
        real = os.path.realpath(path)
        stat = os.stat(real)
        # ctime and inode too: a file rewritten and given its old mtime back is hashed again
        key = f"{real}\0{stat.st_size}\0{stat.st_mtime_ns}\0{stat.st_ctime_ns}\0{stat.st_ino}"
        if key not in self.entries:
            self.entries[key] = sha256_file(real)
            self.hashed += 1
            self._dirty = True
        return stat.st_size, self.entries[key]

    def save(self) -> None:
        if self.memo and self._dirty:
            live = {k: v for k, v in self.entries.items()
                    if os.path.exists(k.split("\0", 1)[0])}
            _save_memo(self.memo, live)
            self._dirty = False


def file_identity(path: str | Path, hasher: Hasher | None = None) -> dict:
    """``{path, size, sha256}`` of one file."""
    size, sha = (hasher or Hasher(None))(path)
    return {"path": str(path), "size": size, "sha256": sha}


def identity(paths: list[str | Path] | str | Path, hasher: Hasher | None = None) -> list[dict]:
    """The identity of the files a data stage reads (a folder: every file in it, sorted)."""
    hasher = hasher or Hasher(None)
    out = []
    for path in [paths] if isinstance(paths, (str, Path)) else paths:
        if Path(path).is_dir():
            files = sorted(p for p in Path(path).rglob("*") if p.is_file())
            out.extend(file_identity(p, hasher) for p in files)
        else:
            out.append(file_identity(path, hasher))
    return out


def hub_identity(spec: dict) -> dict:
    """A Hub source is named by its id and the configured revision (the data stage records
    the commit it resolved to)."""
    return {"hub": spec["hub"], "revision": spec.get("revision") or "main"}
