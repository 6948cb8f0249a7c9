"""One engine for calling models: requests in, answers out, through the request cache.

Translation (:func:`gendermt.translation.runner.translate_file`), the GAMBIT judge and the ConGA
annotator all call a backend through :class:`Engine`. It owns:

* the look-up: each request's digest (:meth:`Backend.request_digest`, the cache key) is
  looked up in the request cache (:mod:`gendermt.translation.cache`), also under the keys an earlier
  version gave it (:meth:`Backend.legacy_digests`: re-stored under the current key);
* the plan: each distinct request not yet answered is sent once (``dedupe``; a lookup such
  as an oracle answers per item and is not deduplicated), in batches of the backend's size,
  in the order the caller asks for (``given``, or ``longest-first`` as translation does:
  what is batched together can change an LLM's answers, so the order is part of a run);
* the sending: each answer is handed to the caller as it arrives (translation writes it to
  its partial file), then each batch's answers are written to the cache, with the release
  of their claims, in one commit (a kill loses at most the batch in flight; a rerun sends
  nothing already answered); at most every ``SYNC_EVERY`` seconds, and after the last
  batch, the caller's copy is made durable (``on_batch``: translation fsyncs its partial
  file) and that commit is synced to disk (see :mod:`gendermt.translation.cache`); a backend giving
  the
  wrong number of answers is an error; an item that fails for good
  (:class:`~gendermt.translation.backends.base.ItemFailed`) does not discard its batch's other
  answers:
  they are kept, and then the run fails naming the item(s); progress counts items.

What a crash costs: a process killed at any point (SIGKILL included) loses no answer it
received (each is in the partial file's OS buffers as it arrives and in the cache at its
batch's commit); an OS crash or power loss loses at most the last ``SYNC_EVERY`` seconds of
answers, which the rerun asks again. The backend's connections and threads are its own for
the job (a keep-alive pool and one executor, reused by every batch) and closed when
:meth:`Engine.run` ends.

A cache that cannot be opened, read or written costs a warning, never the answers. What a
caller does around the engine (translation's partial file, run records and metadata) stays
with the caller; :func:`ask` is the whole loop for a model used as an instrument.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, Literal

from gendermt.config.errors import GenderMTError
from gendermt.report.progress import Progress
from gendermt.translation.backends.base import ItemFailed, Request
from gendermt.translation.cache import RequestCache, corrupt, is_blank, owner_id

log = logging.getLogger(__name__)

#: Seconds after which another process's claim on a request counts as given up: a sending
#: process refreshes its claims every CLAIM_HEARTBEAT seconds (a dead process on this host is
#: noticed at once; one on another host, a cluster node, after this long).
CLAIM_STALE_AFTER = 120.0
CLAIM_HEARTBEAT = 20.0
#: Seconds between looks at the cache while waiting for another process's answers.
CLAIM_POLL = 0.5
#: Seconds between two syncs to disk of what was answered (the caller's ``on_batch``, e.g.
#: the partial file's fsync, and a durable cache commit): an fsync costs milliseconds, a
#: batch from a fast server less, so a sync a batch would be most of a job's time; what a
#: power loss can take is bounded by this instead.
SYNC_EVERY = 1.0

#: The orders requests can be sent in.
Order = Literal["given", "longest-first"]
ORDERS: tuple[str, ...] = ("given", "longest-first")


def request_length(request: Request) -> int:
    """Characters of the source and every message: the ``longest-first`` order's key."""
    return len(request.source) + sum(len(str(m.get("content", ""))) for m in request.messages)


def open_cache(cache_dir: str | Path | None) -> RequestCache:
    """The request cache in ``cache_dir`` (None: a cache that holds nothing); one that cannot
    be opened (locked, read-only, a full disk) is a warning, and the run goes on without it;
    a damaged one is an error naming it (running on would pay for every request again)."""
    try:
        return RequestCache(cache_dir)
    except (sqlite3.Error, OSError) as exc:
        if corrupt(exc):
            raise damaged_cache(cache_dir, exc) from exc
        log.warning("the request cache %s cannot be opened (%s): running without it",
                    cache_dir, exc)
        return RequestCache(None)


def damaged_cache(cache_dir: str | Path | None, exc: BaseException) -> GenderMTError:
    where = Path(cache_dir or ".") / "requests.sqlite"
    return GenderMTError(
        f"the request cache {where} is damaged ({exc}): not running without it, which would "
        f"send (and pay for) every request again at every run. Move it away "
        f"(mv {where} {where}.damaged) to start a new one, or restore it from a copy")


class Engine:
    """Sends ``requests`` (each answered once) to ``backend`` through ``cache``.

    ``who`` names the caller in messages; ``digests`` (by item id) saves computing them
    again; ``dedupe``: identical requests (same digest) are sent once and their answer given
    to every item that asked (False for backends that answer per item); ``run_id`` is stored
    with each cache entry; ``kept_in`` says where answers are kept besides the cache (a
    partial file), for messages; ``count_tokens``: count output tokens (``tokens``) with the
    backend's tokenizer.
    """

    def __init__(self, backend: Any, cache: RequestCache, requests: Iterable[Request], *,
                 who: str, digests: Mapping[str, str] | None = None, dedupe: bool = True,
                 run_id: str | None = None, kept_in: str | Path | None = None,
                 count_tokens: bool = False) -> None:
        self.backend, self.cache, self.who, self.run_id = backend, cache, who, run_id
        self.kept_in = kept_in
        self.requests = list(requests)
        self.digests = {r.item_id: (digests[r.item_id] if digests is not None
                                    else backend.request_digest(r)) for r in self.requests}
        #: What an answer is shared by: the digest, or the item itself without ``dedupe``.
        self.group = {r.item_id: self.digests[r.item_id] if dedupe else r.item_id
                      for r in self.requests}
        #: The requests of each group, in the order given.
        self.items_of: dict[str, list[Request]] = {}
        for r in self.requests:
            self.items_of.setdefault(self.group[r.item_id], []).append(r)
        self.count = count_tokens
        self.dedupe = dedupe
        self.to_send: list[Request] = []
        self.from_elsewhere = 0  # items answered by another process sending them meanwhile
        self.sent = 0       # requests sent so far
        self.answered = 0   # items answered by what was sent
        self.tokens = 0     # output tokens (with ``count_tokens``)
        #: tokens the backend generated (those its outputs leave out included); None where
        #: it does not say
        self.generated: int | None = None
        self._synced = time.monotonic()  # when answers were last synced to disk

    # ------------------------------------------------------------------ the look-up
    def lookup(self, requests: Iterable[Request] | None = None) -> dict[str, dict[str, Any]]:
        """Cache entries (``{"raw", "run_id", "seconds"}``) by current digest of ``requests``
        (default: all), those found under a legacy key re-stored under the current one."""
        requests = self.requests if requests is None else list(requests)
        try:
            found = self.cache.entries(self.digests[r.item_id] for r in requests)
        except sqlite3.Error as exc:
            if corrupt(exc):
                raise damaged_cache(self.cache.path.parent if self.cache.path else None,
                                    exc) from exc
            log.warning("the request cache %s cannot be read (%s): sending every request",
                        self.cache.path, exc)
            found = {}
        legacy = self._legacy_hits([r for r in requests if self.digests[r.item_id]
                                    not in found])
        if legacy:  # under the current key from now on
            self.store({d: e["raw"] for d, e in legacy.items()},
                       {d: e.get("seconds") or 0.0 for d, e in legacy.items()},
                       finish={d: e.get("finish") for d, e in legacy.items()})
        found.update(legacy)
        if self.cache.damaged:
            log.warning("%s: %d entries of the request cache %s did not match their checksum: "
                        "not served, asked again", self.who, self.cache.damaged,
                        self.cache.path)
        return found

    def _legacy_hits(self, requests: list[Request]) -> dict[str, dict[str, Any]]:
        if self.cache.path is None or not requests:
            return {}
        old: dict[str, str] = {}
        for r in requests:
            for legacy in self.backend.legacy_digests(r):
                old.setdefault(legacy, self.digests[r.item_id])
        try:
            found = self.cache.entries(old)
            runs = self.cache.runs({e["run_id"] for e in found.values() if e["run_id"]})
        except sqlite3.Error:
            return {}
        # an old key may not say everything the current one does (which server answered):
        # the backend decides from the entry's run record
        return {old[d]: e for d, e in found.items()
                if self.backend.legacy_entry_ok(d, e, runs.get(e["run_id"] or ""))}

    # ------------------------------------------------------------------ the plan
    def plan(self, answered: Iterable[str], order: Order) -> list[Request]:
        """The requests to send: one per group not in ``answered`` (digests or, without
        ``dedupe``, item ids), the first of its group, in ``order``."""
        if order not in ORDERS:
            raise ValueError(f"unknown order {order!r} (one of: {', '.join(ORDERS)})")
        answered = set(answered)
        unique: dict[str, Request] = {}
        for r in self.requests:
            if self.group[r.item_id] not in answered:
                unique.setdefault(self.group[r.item_id], r)
        todo = list(unique.values())
        # Longest first: a batch too large for memory fails at once, and batches hold
        # similar lengths (less padding). A stable sort: ties keep the order given.
        self.to_send = (sorted(todo, key=request_length, reverse=True)
                        if order == "longest-first" else todo)
        return self.to_send

    # ------------------------------------------------------------------ the sending
    def store(self, outputs: Mapping[str, str], seconds: Mapping[str, float],
              run_id: str | None = None, finish: Mapping[str, str | None] | None = None,
              release: tuple[str, list[str]] | None = None, durable: bool = False) -> None:
        """Answers by digest into the cache, made by ``run_id`` (default: this run), with why
        each ended (``finish``), and ``release=(owner, digests)``'s claims dropped in the same
        commit (``durable``: synced to disk); a cache that cannot be written is a warning."""
        try:
            self.cache.put_many(outputs, self.backend.name, run_id or self.run_id, seconds,
                                {d: f for d, f in (finish or {}).items() if f},
                                release=release, durable=durable)
        except sqlite3.Error as exc:
            where = f"; they are kept in {self.kept_in}" if self.kept_in else ""
            log.warning("could not store %d outputs in the request cache %s (%s)%s",
                        len(outputs), self.cache.path, exc, where)
            if release is not None:  # the claims go all the same (others may send them)
                with contextlib.suppress(sqlite3.Error):
                    self.cache.put_many({}, self.backend.name, release=release)

    def backfill(self, kept: Mapping[str, Mapping[str, Any]]) -> int:
        """Answers the caller kept (``{digest: {"raw", "run", "seconds", "finish"}}``: translation's
        resumed partial records) that the cache lacks are stored under the run that made
        them. A kill between the partial file and the cache leaves such answers; without
        this, a later run with the outputs deleted would send them again. Returns how many
        were stored."""
        if self.cache.path is None or not kept:
            return 0
        try:
            missing = kept.keys() - self.cache.entries(kept).keys()
        except sqlite3.Error:
            return 0  # lookup already warned of an unreadable cache
        by_run: dict[str | None, list[str]] = {}
        for digest in missing:
            if not is_blank(kept[digest]["raw"]):
                by_run.setdefault(kept[digest].get("run"), []).append(digest)
        for run, digests in by_run.items():
            self.store({d: kept[d]["raw"] for d in digests},
                       {d: kept[d].get("seconds") or 0.0 for d in digests}, run,
                       {d: kept[d].get("finish") for d in digests})
        return sum(map(len, by_run.values()))

    def run(self, on_answer: Callable[[str, str, float, str], None], *,
            progress: Progress | None = None,
            on_batch: Callable[[], None] | None = None,
            on_failures: Callable[[list[tuple[Request, Exception]]], None] | None = None,
            on_cached: Callable[[str, dict[str, Any]], None] | None = None
            ) -> None:
        """Send :attr:`to_send` (see :meth:`plan`) in batches.

        ``on_answer(group, raw, seconds, finish_reason)`` as each answer arrives (seconds
        since its batch started); ``on_batch()`` once a batch is complete, before its answers
        go to the cache, at most every ``SYNC_EVERY`` seconds and after the last batch and a
        batch with failures (make the caller's copy durable: a power loss takes at most what
        came since); ``on_failures(failures)`` before the run fails on items that failed for
        good (the batch's other answers are kept). The backend is closed (its ``close()``:
        connections, threads) when the run ends.

        With a cache and ``dedupe``, each request is claimed in the cache before it is sent
        (:meth:`RequestCache.claim`): one that another process sharing the cache is sending
        now is not sent again; its answer is taken from the cache once that process stored
        it (``on_cached(group, entry)``, by default ``on_answer``), and sent here only if
        that process gave it up (failed, died, or stopped refreshing its claims).
        """
        try:
            self._run(on_answer, progress, on_batch, on_failures, on_cached)
        finally:  # the job's connections and threads
            close = getattr(self.backend, "close", None)
            if close is not None:
                close()

    def _run(self, on_answer: Callable[[str, str, float, str], None],
             progress: Progress | None, on_batch: Callable[[], None] | None,
             on_failures: Callable[[list[tuple[Request, Exception]]], None] | None,
             on_cached: Callable[[str, dict[str, Any]], None] | None) -> None:
        self._synced = time.monotonic()
        if self.cache.path is None or not self.dedupe:
            self._send(self.to_send, on_answer, progress, on_batch, on_failures)
            return
        owner = owner_id(self.run_id or uuid.uuid4().hex[:12])
        pending = list(self.to_send)
        stop = threading.Event()

        def heartbeat() -> None:  # claims stay fresh through batches of any length
            while not stop.wait(CLAIM_HEARTBEAT):
                with contextlib.suppress(sqlite3.Error):
                    self.cache.refresh(owner)

        beat = threading.Thread(target=heartbeat, daemon=True)
        beat.start()
        try:
            while pending:
                try:
                    mine = self.cache.claim((self.digests[r.item_id] for r in pending), owner,
                                            CLAIM_STALE_AFTER)
                except sqlite3.Error:
                    mine = {self.digests[r.item_id] for r in pending}  # send them all
                ours = [r for r in pending if self.digests[r.item_id] in mine]
                pending = [r for r in pending if self.digests[r.item_id] not in mine]
                if ours:
                    self._send(ours, on_answer, progress, on_batch, on_failures, owner)
                if pending:
                    pending = self._answered_elsewhere(pending, on_answer, on_cached,
                                                       progress, wait=not ours)
        finally:
            stop.set()
            beat.join()
            with contextlib.suppress(sqlite3.Error):
                self.cache.release(owner)

    def _answered_elsewhere(self, pending: list[Request],
                            on_answer: Callable[[str, str, float, str], None],
                            on_cached: Callable[[str, dict[str, Any]], None] | None,
                            progress: Progress | None, wait: bool) -> list[Request]:
        """Hand over the answers of ``pending`` that another process stored; returns those
        still missing (after a short wait when nothing else is to be done)."""
        if wait:
            time.sleep(CLAIM_POLL)
        try:
            found = self.cache.entries(self.digests[r.item_id] for r in pending)
        except sqlite3.Error:
            found = {}
        left = []
        for r in pending:
            entry = found.get(self.digests[r.item_id])
            if entry is None:
                left.append(r)
                continue
            group = self.group[r.item_id]
            if on_cached is not None:
                on_cached(group, entry)
            else:
                on_answer(group, entry["raw"], entry.get("seconds") or 0.0,
                          entry.get("finish") or "unknown")
            self.from_elsewhere += len(self.items_of[group])
            if progress is not None:
                progress.update(len(self.items_of[group]))
        return left

    def _send(self, requests: list[Request], on_answer: Callable[[str, str, float, str], None],
              progress: Progress | None, on_batch: Callable[[], None] | None,
              on_failures: Callable[[list[tuple[Request, Exception]]], None] | None,
              owner: str | None = None) -> None:
        """Send ``requests`` in batches (see :meth:`run`); ``owner``'s claims of each batch
        are released in the commit of its answers."""
        backend = self.backend
        for start in range(0, len(requests), backend.batch_size):
            batch = requests[start:start + backend.batch_size]
            answers = _Batch(self, batch, on_answer, progress)
            backend.finish_reasons = backend.generated_tokens = None
            self._answer(batch, answers)
            b0, failures, got, finish, outs, extra = (answers.b0, answers.failures,
                                                      answers.got, answers.finish,
                                                      answers.outs, answers.extra)
            if extra or len(outs) + len(failures) != len(batch):
                raise RuntimeError(f"{self.who}: backend {backend.name} returned "
                                   f"{len(outs) + len(failures) + extra} answers for "
                                   f"{len(batch)} requests")
            per_item = (time.perf_counter() - b0) / len(batch)
            # the caller's copy first (a kill between the two leaves answers only there:
            # the resuming run backfills the cache from it), synced when due
            now = time.monotonic()
            sync = bool(failures) or start + backend.batch_size >= len(requests) or \
                now - self._synced >= SYNC_EVERY
            if sync:
                self._synced = now
                if on_batch is not None:
                    on_batch()
            # one commit: the answers and the release of their claims (the heartbeat keeps
            # the others fresh: refreshing them all a batch rewrote every claim row)
            self.store(got, {self.digests[r.item_id]: per_item for r in batch}, finish=finish,
                       release=None if owner is None else
                       (owner, [self.digests[r.item_id] for r in batch]), durable=sync)
            self._tally(batch, outs)
            if failures:
                if on_failures is not None:
                    on_failures(failures)
                self._raise_failures(failures, len(batch) - len(failures))
            blank = sum(is_blank(raw) for raw in outs)
            if blank:
                log.warning("%s: %d empty output(s) in this batch (kept%s, not cached)",
                            self.who, blank, f" in {self.kept_in}" if self.kept_in else "")

    def _answer(self, batch: list[Request], answers: _Batch) -> None:
        """The backend's answers to ``batch``, each taken by ``answers`` as it arrives."""
        backend = self.backend
        # A backend that answers in threads of its own hands each answer over there
        # (no thread switch an answer); any other yields them here.
        into = getattr(backend, "translate_into", None)
        if into is not None:
            into(batch, answers.take)
        else:
            for i, raw in backend.translate_each(batch):
                answers.take(i, raw)

    def _tally(self, batch: list[Request], outs: list[str]) -> None:
        """Count a sent batch: its requests, its outputs' tokens (with ``count_tokens``)
        and the tokens the backend says it generated."""
        backend = self.backend
        if self.count:
            self.tokens += backend.count_tokens(outs)
        if backend.generated_tokens is not None:
            self.generated = (self.generated or 0) + backend.generated_tokens
        self.sent += len(batch)

    def _raise_failures(self, failures: list[tuple[Request, Exception]], kept: int) -> None:
        """Fail after the batch, naming the items that failed (the batch's other answers
        are kept for the rerun)."""
        first = failures[0][1]
        if not isinstance(first, GenderMTError) or len(failures) == 1:
            raise first
        names = ", ".join(r.item_id for r, _ in failures[:5]) + (", ..." if len(failures) > 5
                                                                 else "")
        where = self.kept_in or (f"the request cache {self.cache.path}" if self.cache.path
                                 else None)
        kept_text = (f"the batch's other {kept} answers are kept in {where}" if where else
                     f"the batch's other {kept} answers are lost (no request cache)")
        raise ItemFailed(failures[0][0].item_id,
                         f"{len(failures)} items failed ({names}); {kept_text}; first error: "
                         f"{first}") from first


class _Batch:
    """What a batch's answers gave so far; :meth:`take` takes each as it arrives."""

    def __init__(self, engine: Engine, batch: list[Request],
                 on_answer: Callable[[str, str, float, str], None],
                 progress: Progress | None) -> None:
        self.engine, self.batch, self.on_answer, self.progress = (engine, batch, on_answer,
                                                                  progress)
        self.b0 = time.perf_counter()
        self.failures: list[tuple[Request, Exception]] = []
        self.got: dict[str, str] = {}
        self.finish: dict[str, str] = {}
        self.outs: list[str] = []
        self.extra = 0
        self._lock = threading.Lock()

    def take(self, i: int, raw: Any) -> None:
        """Answer ``i`` (or the error it failed with), in whichever thread it arrives in,
        one at a time: handed to the caller at once."""
        engine, backend = self.engine, self.engine.backend
        with self._lock:
            if not 0 <= i < len(self.batch):
                self.extra += 1
                return
            req = self.batch[i]
            if isinstance(raw, Exception):
                self.failures.append((req, raw))
                return
            if not isinstance(raw, str):
                raise RuntimeError(f"{engine.who}: backend {backend.name} returned "
                                   f"{type(raw).__name__} for item {req.item_id}")
            seconds = time.perf_counter() - self.b0
            digest = engine.digests[req.item_id]
            self.got[digest] = raw
            self.outs.append(raw)
            group = engine.group[req.item_id]
            self.finish[digest] = reason = backend.finish_reason_of(i, req)
            self.on_answer(group, raw, seconds, reason)
            n = len(engine.items_of[group])
            engine.answered += n
            if self.progress is not None:
                self.progress.update(n)


def ask(backend: Any, cache: RequestCache, requests: list[Request], desc: str,
        who: str = "judge", unit: str = "text", order: Order = "given"
        ) -> tuple[dict[str, str], int, int]:
    """Answers by item id, for a chat model used as an instrument (the GAMBIT judge, the
    ConGA annotator). Each request is looked up in the cache first; identical requests are
    sent once, in ``order`` (default: as given); each batch's answers are cached as it
    returns, so a rerun after a kill sends only what was never answered. Returns
    ``(answers, requests sent, distinct requests answered from the cache)``."""
    engine = Engine(backend, cache, requests, who=who)
    raw = {d: e["raw"] for d, e in engine.lookup().items()}
    cached = len(raw)
    todo = engine.plan(raw, order)

    def on_answer(group: str, answer: str, seconds: float, finish: str) -> None:
        raw[group] = answer

    with Progress(len(requests), desc, unit=unit,
                  initial=sum(len(engine.items_of[d]) for d in raw)) as bar:
        engine.run(on_answer, progress=bar)
    return {r.item_id: raw[engine.digests[r.item_id]] for r in requests}, len(todo), cached
