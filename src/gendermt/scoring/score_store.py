"""A content-addressed store of segment scores (COMET, BERTScore), outside Snakemake's view.

A COMET or BERTScore job scores every run of a benchmark at once; without a store, adding a
system would rescore every other system's triples (GPU hours at study scale). Here each score
is kept under the digest of the metric's identity (model id, its revision, the scorer's
version and options) and the segment's texts (source, hypothesis, reference), so a job looks
up what it can and scores only what is new. The per-run score files stay Snakemake outputs;
the store is not an input of any job: moving or deleting it reruns nothing, it only costs the
scores again.

Standard library only: it must import in the COMET environment (``.venv-comet``) as well. One SQLite
file, as the request cache (:mod:`gendermt.translation.cache`): several jobs may read and write it
at once (SQLite locks the file); a job killed mid-write leaves the last committed chunk. It needs a
local or lock-honouring filesystem (on a cluster without one, a node-local ``cache.scores_dir``).
Non-finite scores are never stored.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import closing
from pathlib import Path
from typing import Any

from gendermt.core.errors import GenderMTError

FILENAME = "scores.sqlite"


def checksum(key: str, score: float) -> str:
    """What a stored score is checked against when read (a changed byte is not served)."""
    return hashlib.sha256(f"{key}\0{float(score)!r}".encode()).hexdigest()[:16]


def segment_key(metric_id: str, texts: Sequence[str]) -> str:
    """The store's key of one segment's score: the metric's identity and the segment's texts
    (e.g. source, hypothesis, reference), each kept apart (JSON), so no two tuples collide."""
    payload = json.dumps([metric_id, *texts], ensure_ascii=False)
    return hashlib.sha256(payload.encode()).hexdigest()


def score_store_dir(config: Mapping[str, Any]) -> str | None:
    """The score store's folder a workflow config asks for: ``cache.scores_dir``, else
    ``cache.dir``; None when ``cache.enabled`` is false."""
    cache = config.get("cache") or {}
    if not cache.get("enabled", True):
        return None
    return cache.get("scores_dir") or cache.get("dir", "results/cache")


class ScoreStore:
    """Scores by :func:`segment_key`. ``ScoreStore(None)`` is a store that holds nothing."""

    def __init__(self, directory: str | Path | None, timeout: float = 120.0) -> None:
        self.path = Path(directory) / FILENAME if directory is not None else None
        self.timeout = timeout
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self._named(), closing(self._connect()) as con, con:
                con.execute("CREATE TABLE IF NOT EXISTS scores (key TEXT PRIMARY KEY, "
                            "score REAL NOT NULL, metric TEXT NOT NULL, created REAL NOT NULL)")
                have = {row[1] for row in con.execute("PRAGMA table_info(scores)")}
                if "checksum" not in have:
                    with contextlib.suppress(sqlite3.OperationalError):  # another job added it
                        con.execute("ALTER TABLE scores ADD COLUMN checksum TEXT")

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=self.timeout)

    @contextlib.contextmanager
    def _named(self) -> Iterator[None]:
        """A store that cannot be read or written is an error naming its file."""
        try:
            yield
        except sqlite3.Error as exc:
            raise GenderMTError(
                f"the score store {self.path} cannot be used ({type(exc).__name__}: {exc}); "
                f"if it is corrupt, move it away (it is no input of any job: a new one only "
                f"costs the scores again)") from exc

    def get_many(self, keys: Iterable[str]) -> dict[str, float]:
        """The stored scores of those keys that have one."""
        keys = list(dict.fromkeys(keys))
        if self.path is None or not keys:
            return {}
        found: dict[str, float] = {}
        with self._named(), closing(self._connect()) as con:
            for start in range(0, len(keys), 500):  # SQLite's limit on bound parameters
                chunk = keys[start:start + 500]
                marks = ",".join("?" * len(chunk))
                for key, score, check in con.execute(
                        f"SELECT key, score, checksum FROM scores WHERE key IN ({marks})",
                        chunk):
                    # a changed value is not served (scored again); older rows have none
                    if check is None or check == checksum(key, score):
                        found[key] = score
        return found

    def put_many(self, scores: Mapping[str, float], metric: str) -> None:
        """Store finite scores (one transaction: all of them or, if killed, none)."""
        rows = [(k, float(v), metric, time.time(), checksum(k, v)) for k, v in scores.items()
                if math.isfinite(float(v))]
        if self.path is None or not rows:
            return
        with self._named(), closing(self._connect()) as con, con:
            con.executemany("INSERT OR REPLACE INTO scores (key, score, metric, created, "
                            "checksum) VALUES (?, ?, ?, ?, ?)", rows)

    def __len__(self) -> int:
        if self.path is None:
            return 0
        with self._named(), closing(self._connect()) as con:
            return con.execute("SELECT COUNT(*) FROM scores").fetchone()[0]


def score_through_store(store: ScoreStore, metric_id: str, segments: Sequence[Sequence[str]],
                        score: Callable[[list[Sequence[str]]], Sequence[float]],
                        chunk: int = 4096) -> tuple[list[float], int]:
    """Scores of ``segments`` (distinct text tuples), in their order: those in the store read
    from it, the rest computed by ``score`` (called only when something is missing, in chunks
    of ``chunk`` segments, each stored as soon as it is scored, so a killed job keeps what it
    finished). Returns the scores and how many segments were scored, not read."""
    keys = [segment_key(metric_id, seg) for seg in segments]
    found = store.get_many(keys)
    missing = [i for i, key in enumerate(keys) if key not in found]
    for start in range(0, len(missing), chunk):
        part = missing[start:start + chunk]
        values = list(score([segments[i] for i in part]))
        if len(values) != len(part):
            raise RuntimeError(f"the scorer returned {len(values)} scores for {len(part)} "
                               "segments")
        new = {keys[i]: float(v) for i, v in zip(part, values, strict=True)}
        store.put_many(new, metric_id)
        found.update(new)
    return [found[key] for key in keys], len(missing)
