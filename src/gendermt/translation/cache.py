"""An on-disk store of raw outputs, so that an identical request is never sent twice.

Keyed by :meth:`gendermt.translation.backends.base.Backend.request_digest` (what determines an
output: for an API the model's name and the request body as sent; for other backends their identity
— backend, model, revision, decoding settings — and the rendered request), so that two prompts, two
benchmarks or a rerun that ask the same thing of the same system share one answer. Only answers that
passed validation are stored: an empty or whitespace-only output is never cached.
:meth:`RequestCache.forget` (``gendermt cache forget``) drops entries.

Each entry also records the run that produced it (``run_id``, seconds per item), and the
``runs`` table each run's record (start, device, dtype, throughput), so that a rerun served
from the cache still says how and by what its outputs were made.

One SQLite file: several translation jobs may read and write it at once (SQLite locks the
file; writers wait up to ``timeout`` seconds), and a job killed mid-write leaves the last
committed state. SQLite's locking needs a local or a lock-honouring shared filesystem; on a
cluster whose shared filesystem does not honour locks, give each node its own ``cache.dir``.

A :class:`RequestCache` keeps one connection for its life (a job's), shared by its threads
under a lock: opening one costs more than a commit. On a local filesystem the file is in WAL
mode with ``synchronous=NORMAL``: a commit is a write to the log in the OS's hands, so a
process killed at any point (SIGKILL, out of memory, a cluster's pre-emption) loses nothing
committed, and costs no ``fsync``; a commit asked to be ``durable`` (the engine's, at most
once a second) runs at ``synchronous=FULL``, which syncs the log and with it every commit
before it: an OS crash or power loss loses at most the commits since, which a rerun asks
again (never a wrong or torn answer: SQLite rolls back what was not synced). WAL needs every
process using the file on one host (shared memory beside it), so on a network filesystem
(NFS, Lustre, GPFS, CIFS, ...: ``/proc/self/mountinfo`` says) the file keeps SQLite's rollback
journal at ``synchronous=FULL`` (each commit synced). ``GENDERMT_CACHE_JOURNAL=wal`` or
``=delete`` overrides the choice.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import socket
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator, Mapping
from contextlib import closing
from pathlib import Path
from typing import Any

FILENAME = "requests.sqlite"
# Columns added after the first version (existing caches gain them on open).
_EXTRA_COLUMNS = {"run_id": "TEXT", "seconds": "REAL", "finish": "TEXT", "checksum": "TEXT"}
# An entry that is no answer (is_blank), in SQL.
_BLANK_SQL = "trim(raw, ' ' || char(9, 10, 11, 12, 13)) = ''"


def configured_dir(config: Mapping[str, Any]) -> str | None:
    """The request cache folder a workflow config asks for (None: no cache)."""
    cache = config.get("cache") or {}
    return cache.get("dir", "results/cache") if cache.get("enabled", True) else None


def checksum(digest: str, raw: str) -> str:
    """What a stored answer is checked against when read: a changed byte is not served."""
    return hashlib.sha256(f"{digest}\0{raw}".encode()).hexdigest()[:16]


def corrupt(exc: BaseException) -> bool:
    """Whether an SQLite error says the file is damaged (not locked, read-only or full):
    running on without the cache would pay for every request again, at every run."""
    return isinstance(exc, sqlite3.DatabaseError) and not isinstance(
        exc, sqlite3.OperationalError) or "malformed" in str(exc)


def is_blank(raw: str) -> bool:
    """An output that is no answer (empty or whitespace only): never cached."""
    return not raw.strip()


def owner_id(token: str) -> str:
    """This process's name in claims: host, pid and a token of its own."""
    return f"{socket.gethostname()}:{os.getpid()}:{token}"


def _alive(owner: str) -> bool:
    """Whether a claim's process may still be sending (unknown for other hosts: yes)."""
    host, _, rest = owner.partition(":")
    pid = rest.partition(":")[0]
    if host != socket.gethostname() or not pid.isdigit():
        return True
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


#: Filesystems known to be local to the host (WAL is safe there); any other keeps the
#: rollback journal.
LOCAL_FILESYSTEMS = frozenset({"ext2", "ext3", "ext4", "xfs", "btrfs", "tmpfs", "zfs", "f2fs",
                               "overlay", "bcachefs", "jfs", "reiserfs", "ramfs", "nilfs2"})


MOUNTINFO = Path("/proc/self/mountinfo")


def _filesystem_of(path: Path, mountinfo: Path | None = None) -> str | None:
    """The type of the filesystem ``path`` is on (Linux: ``/proc/self/mountinfo``; None
    where that cannot be read)."""
    try:
        lines = (mountinfo or MOUNTINFO).read_text().splitlines()
    except OSError:
        return None
    target = os.path.realpath(path)
    best, kind = "", None
    for line in lines:
        left, _, right = line.partition(" - ")
        fields = left.split()
        if len(fields) < 5 or not right:
            continue
        mount = fields[4].replace("\\040", " ").replace("\\011", "\t")
        inside = target == mount or target.startswith(mount.rstrip("/") + "/")
        if inside and len(mount) >= len(best):
            best, kind = mount, right.split()[0]
    return kind


def journal_mode(directory: Path) -> str:
    """``wal`` for a cache on a local filesystem, ``delete`` (SQLite's rollback journal)
    elsewhere; ``GENDERMT_CACHE_JOURNAL`` overrides it."""
    forced = os.environ.get("GENDERMT_CACHE_JOURNAL", "").strip().lower()
    if forced in ("wal", "delete"):
        return forced
    return "wal" if _filesystem_of(directory) in LOCAL_FILESYSTEMS else "delete"


def check_file(directory: str | Path | None) -> None:
    """Raise GenderMTError when the cache file in ``directory`` exists but is damaged (a
    start-up check: a job would otherwise find it first, or run without it and pay again)."""
    if directory is None or not (Path(directory) / FILENAME).is_file():
        return
    path = Path(directory) / FILENAME
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)) as con:
            con.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    except sqlite3.Error as exc:
        if corrupt(exc):
            from gendermt.core.errors import GenderMTError

            raise GenderMTError(f"the request cache {path} is damaged ({exc}): move it away "
                                f"(mv {path} {path}.damaged) to start a new one, or restore "
                                f"it from a copy") from exc


class RequestCache:
    """Raw outputs by request digest. ``RequestCache(None)`` is a cache that holds nothing."""

    def __init__(self, directory: str | Path | None, timeout: float = 120.0) -> None:
        self.path = Path(directory) / FILENAME if directory is not None else None
        self.timeout = timeout
        #: Entries read whose checksum did not match (not served).
        self.damaged = 0
        self._lock = threading.RLock()
        self._shared: sqlite3.Connection | None = None
        self._pid = os.getpid()
        self._inherited: list[sqlite3.Connection] = []
        #: ``wal`` or ``delete`` (see :func:`journal_mode`); None without a file.
        self.journal: str | None = None
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.journal = journal_mode(self.path.parent)
            with self._lock:
                con = self._con()
                with con:
                    self._create(con)

    def _create(self, con: sqlite3.Connection) -> None:
        con.execute("CREATE TABLE IF NOT EXISTS outputs (digest TEXT PRIMARY KEY, "
                    "raw TEXT NOT NULL, backend TEXT NOT NULL, created REAL NOT NULL)")
        con.execute("CREATE TABLE IF NOT EXISTS runs (run_id TEXT PRIMARY KEY, "
                    "record TEXT NOT NULL)")
        # requests being sent now, by which process: another process sharing the
        # cache waits for their answers instead of sending them too
        con.execute("CREATE TABLE IF NOT EXISTS inflight (digest TEXT PRIMARY KEY, "
                    "owner TEXT NOT NULL, claimed REAL NOT NULL)")
        have = {row[1] for row in con.execute("PRAGMA table_info(outputs)")}
        for column, kind in _EXTRA_COLUMNS.items():
            if column not in have:
                try:
                    con.execute(f"ALTER TABLE outputs ADD COLUMN {column} {kind}")
                except sqlite3.OperationalError as exc:  # another job added it
                    if "duplicate column" not in str(exc):
                        raise

    def _connect(self) -> sqlite3.Connection:
        """A new connection to the file (the cache itself uses :meth:`_con`)."""
        return sqlite3.connect(self.path, timeout=self.timeout)

    def _con(self) -> sqlite3.Connection:
        """This cache's one connection (callers hold ``_lock``), opened on first use and
        again in a forked child (a connection must not cross a fork)."""
        if self._shared is not None and self._pid == os.getpid():
            return self._shared
        if self._shared is not None:  # inherited: left as it is, never used or closed here
            self._inherited.append(self._shared)
        con = sqlite3.connect(self.path, timeout=self.timeout, check_same_thread=False)
        try:
            try:
                mode = con.execute(f"PRAGMA journal_mode={self.journal or 'delete'}"
                                   ).fetchone()[0]
            except sqlite3.OperationalError as exc:  # locked: keep the mode the file has
                if "locked" not in str(exc):
                    raise
                mode = con.execute("PRAGMA journal_mode").fetchone()[0]
            # WAL: a commit survives the process at once, the disk at the next durable one
            self.journal = "wal" if str(mode).lower() == "wal" else "delete"
            con.execute("PRAGMA synchronous=NORMAL" if self.journal == "wal"
                        else "PRAGMA synchronous=FULL")
        except BaseException:
            con.close()
            raise
        self._shared, self._pid = con, os.getpid()
        return con

    @contextlib.contextmanager
    def _use(self) -> Iterator[sqlite3.Connection]:
        """The connection, for one statement or transaction (``with con:`` inside), held
        from this cache's other threads (the engine's heartbeat) meanwhile."""
        with self._lock:
            yield self._con()

    def close(self) -> None:
        """Close the connection (a later call opens it again)."""
        with self._lock:
            if self._shared is not None and self._pid == os.getpid():
                self._shared.close()
            self._shared = None

    def entries(self, digests: Iterable[str]) -> dict[str, dict[str, Any]]:
        """``{digest: {"raw", "run_id", "seconds", "finish"}}`` of those digests that have an
        entry (blank outputs stored by older versions are left out: they are no answer;
        ``finish``, why the answer ended, is None in entries stored before it was kept)."""
        digests = list(dict.fromkeys(digests))
        if self.path is None or not digests:
            return {}
        found: dict[str, dict[str, Any]] = {}
        with self._use() as con:
            for start in range(0, len(digests), 500):  # SQLite's limit on bound parameters
                chunk = digests[start:start + 500]
                marks = ",".join("?" * len(chunk))
                for digest, raw, run_id, seconds, finish, check in con.execute(
                        f"SELECT digest, raw, run_id, seconds, finish, checksum FROM outputs "
                        f"WHERE digest IN ({marks})", chunk):
                    if check is not None and check != checksum(digest, raw):
                        self.damaged += 1  # not served: asked again, and stored anew
                        continue
                    if not is_blank(raw):
                        found[digest] = {"raw": raw, "run_id": run_id, "seconds": seconds,
                                         "finish": finish}
        return found

    def get_many(self, digests: Iterable[str]) -> dict[str, str]:
        """The stored outputs of those digests that have one."""
        return {d: e["raw"] for d, e in self.entries(digests).items()}

    def put_many(self, outputs: Mapping[str, str], backend: str, run_id: str | None = None,
                 seconds: Mapping[str, float] | None = None,
                 finish: Mapping[str, str] | None = None, *,
                 release: tuple[str, Iterable[str]] | None = None,
                 durable: bool = False) -> int:
        """Store outputs (one transaction: all of them or, if killed, none), with why each
        ended (``finish``: stop, length, ...); blank outputs are left out. Returns how many
        were stored.

        ``release=(owner, digests)``: in the same transaction (the engine's one commit a
        batch), drop ``owner``'s claims of ``digests`` (its others stay: its heartbeat
        refreshes them, :meth:`refresh`). ``durable``:
        synced to disk before returning, with every commit before it (WAL's
        ``synchronous=FULL`` for this commit; the rollback journal syncs every commit)."""
        rows = [(d, raw, backend, time.time(), run_id, (seconds or {}).get(d),
                 (finish or {}).get(d), checksum(d, raw))
                for d, raw in outputs.items() if not is_blank(raw)]
        if self.path is None or not (rows or release):
            return 0
        with self._use() as con:
            full = durable and self.journal == "wal"
            if full:
                con.execute("PRAGMA synchronous=FULL")
            try:
                with con:
                    con.executemany("INSERT OR REPLACE INTO outputs (digest, raw, backend, "
                                    "created, run_id, seconds, finish, checksum) VALUES "
                                    "(?, ?, ?, ?, ?, ?, ?, ?)", rows)
                    if release is not None:
                        owner, digests = release
                        con.executemany("DELETE FROM inflight WHERE owner = ? AND digest = ?",
                                        [(owner, d) for d in digests])
            finally:
                if full:
                    con.execute("PRAGMA synchronous=NORMAL")
        return len(rows)

    def forget(self, digests: Iterable[str] = (), *, blank: bool = False,
               prefix: bool = False) -> int:
        """Drop the entries of ``digests`` (with ``prefix``: of digests starting with them,
        e.g. the 16-digit keys of partial records), and with ``blank`` every empty or
        whitespace-only output. Returns how many were dropped."""
        if self.path is None:
            return 0
        dropped = 0
        with self._use() as con, con:
            for digest in dict.fromkeys(digests):
                if prefix:
                    cur = con.execute("DELETE FROM outputs WHERE substr(digest, 1, ?) = ?",
                                      (len(digest), digest))
                else:
                    cur = con.execute("DELETE FROM outputs WHERE digest = ?", (digest,))
                dropped += cur.rowcount
            if blank:
                dropped += con.execute(f"DELETE FROM outputs WHERE {_BLANK_SQL}").rowcount
        return dropped

    def matching(self, prefix: str, limit: int = 5) -> list[str]:
        """Up to ``limit`` digests that start with ``prefix`` (for telling a whole digest or a
        unique prefix from an ambiguous one)."""
        if self.path is None:
            return []
        with self._use() as con:
            return [d for (d,) in con.execute(
                "SELECT digest FROM outputs WHERE substr(digest, 1, ?) = ? LIMIT ?",
                (len(prefix), prefix, limit))]

    def count_blank(self) -> int:
        """How many empty or whitespace-only entries there are (older versions stored them)."""
        if self.path is None:
            return 0
        with self._use() as con:
            return con.execute(f"SELECT COUNT(*) FROM outputs WHERE {_BLANK_SQL}").fetchone()[0]

    def clear(self) -> int:
        """Drop every entry (the runs' records stay); returns how many were dropped."""
        if self.path is None:
            return 0
        with self._use() as con, con:
            return con.execute("DELETE FROM outputs").rowcount

    def claim(self, digests: Iterable[str], owner: str, stale_after: float = 300.0
              ) -> set[str]:
        """Claim ``digests`` for ``owner`` (``host:pid:token``): returns those it holds now.
        A claim another owner holds is left to it unless it is stale: not refreshed for
        ``stale_after`` seconds, or its process on this host is gone."""
        digests = list(dict.fromkeys(digests))
        if self.path is None or not digests:
            return set(digests)
        now = time.time()
        with self._use() as con, con:
            con.execute("DELETE FROM inflight WHERE claimed < ?", (now - stale_after,))
            for other, in con.execute("SELECT DISTINCT owner FROM inflight WHERE owner != ?",
                                      (owner,)).fetchall():
                if not _alive(other):
                    con.execute("DELETE FROM inflight WHERE owner = ?", (other,))
            con.executemany("INSERT OR IGNORE INTO inflight VALUES (?, ?, ?)",
                            [(d, owner, now) for d in digests])
            held: set[str] = set()
            for start in range(0, len(digests), 500):
                chunk = digests[start:start + 500]
                marks = ",".join("?" * len(chunk))
                held.update(d for d, in con.execute(
                    f"SELECT digest FROM inflight WHERE owner = ? AND digest IN ({marks})",
                    [owner, *chunk]))
        return held

    def refresh(self, owner: str) -> None:
        """Keep ``owner``'s claims fresh (it is still sending)."""
        if self.path is None:
            return
        with self._use() as con, con:
            con.execute("UPDATE inflight SET claimed = ? WHERE owner = ?", (time.time(), owner))

    def release(self, owner: str, digests: Iterable[str] | None = None) -> None:
        """Drop ``owner``'s claims (of ``digests``; all of them without)."""
        if self.path is None:
            return
        with self._use() as con, con:
            if digests is None:
                con.execute("DELETE FROM inflight WHERE owner = ?", (owner,))
            else:
                con.executemany("DELETE FROM inflight WHERE owner = ? AND digest = ?",
                                [(owner, d) for d in digests])

    def put_run(self, run_id: str, record: Mapping[str, Any]) -> None:
        """Record (or update) a run's record."""
        if self.path is None:
            return
        with self._use() as con, con:
            con.execute("INSERT OR REPLACE INTO runs VALUES (?, ?)",
                        (run_id, json.dumps(dict(record), ensure_ascii=False)))

    def runs(self, run_ids: Iterable[str]) -> dict[str, dict[str, Any]]:
        """The records of those runs the cache knows."""
        ids = [r for r in dict.fromkeys(run_ids) if r]
        if self.path is None or not ids:
            return {}
        with self._use() as con:
            marks = ",".join("?" * len(ids))
            return {run_id: json.loads(record) for run_id, record in con.execute(
                f"SELECT run_id, record FROM runs WHERE run_id IN ({marks})", ids)}

    def __len__(self) -> int:
        if self.path is None:
            return 0
        with self._use() as con:
            return con.execute("SELECT COUNT(*) FROM outputs").fetchone()[0]
