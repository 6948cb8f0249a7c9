"""An on-disk store of raw outputs, so that an identical request is never sent twice.

Keyed by :func:`gendermt.translate.request_digest` (the backend's identity: backend, model,
revision and decoding settings; and the rendered request), so that two prompts, two
benchmarks or a rerun that ask the same thing of the same system share one answer.

One SQLite file: several translation jobs may read and write it at once (SQLite locks the
file; writers wait up to ``timeout`` seconds), and a job killed mid-write leaves the last
committed state. SQLite's locking needs a local or a lock-honouring shared filesystem; on a
cluster whose shared filesystem does not honour locks, give each node its own ``cache.dir``.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable, Mapping
from contextlib import closing
from pathlib import Path

FILENAME = "requests.sqlite"


class RequestCache:
    """Raw outputs by request digest. ``RequestCache(None)`` is a cache that holds nothing."""

    def __init__(self, directory: str | Path | None, timeout: float = 120.0) -> None:
        self.path = Path(directory) / FILENAME if directory is not None else None
        self.timeout = timeout
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with closing(self._connect()) as con, con:
                con.execute("CREATE TABLE IF NOT EXISTS outputs (digest TEXT PRIMARY KEY, "
                            "raw TEXT NOT NULL, backend TEXT NOT NULL, created REAL NOT NULL)")

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=self.timeout)

    def get_many(self, digests: Iterable[str]) -> dict[str, str]:
        """The stored outputs of those digests that have one."""
        digests = list(dict.fromkeys(digests))
        if self.path is None or not digests:
            return {}
        found: dict[str, str] = {}
        with closing(self._connect()) as con:
            for start in range(0, len(digests), 500):  # SQLite's limit on bound parameters
                chunk = digests[start:start + 500]
                marks = ",".join("?" * len(chunk))
                found.update(con.execute(
                    f"SELECT digest, raw FROM outputs WHERE digest IN ({marks})", chunk))
        return found

    def put_many(self, outputs: Mapping[str, str], backend: str) -> None:
        """Store outputs (one transaction: all of them or, if killed, none)."""
        if self.path is None or not outputs:
            return
        now = time.time()
        with closing(self._connect()) as con, con:
            con.executemany("INSERT OR REPLACE INTO outputs VALUES (?, ?, ?, ?)",
                            [(d, raw, backend, now) for d, raw in outputs.items()])

    def __len__(self) -> int:
        if self.path is None:
            return 0
        with closing(self._connect()) as con:
            return con.execute("SELECT COUNT(*) FROM outputs").fetchone()[0]
