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
* the sending (:meth:`Engine.send`, a generator): each answer is yielded to the caller as it
  arrives (translation writes it to its partial file), then each batch's answers are written to
  the cache, with the release of their claims, in one commit (a kill loses at most the batch in
  flight; a rerun sends nothing already answered); at most every ``SYNC_EVERY`` seconds, and
  after the last batch, the engine yields :data:`SYNC` before that commit (the caller makes its
  copy durable: translation fsyncs its partial file) and that commit is synced to disk (see
  :mod:`gendermt.translation.cache`); a backend giving the wrong number of answers is an error;
  an item that fails for good (:class:`~gendermt.translation.backends.base.ItemFailed`) does not
  discard its batch's other answers: they are kept, and then the sending fails naming the
  item(s) (:attr:`Engine.failed`).

What a crash costs: a process killed at any point (SIGKILL included) loses no answer it
received (each is in the partial file's OS buffers as it arrives and in the cache at its
batch's commit; when the caller fails to keep an answer, e.g. its partial file on a full disk,
or the backend or the sending stops mid-batch, the batch's answers that arrived are committed
to the cache before the error goes on); an OS crash or power loss loses at most the last
``SYNC_EVERY`` seconds of answers, which the rerun asks again. The backend's connections and
threads are its own for the job (a keep-alive pool and one executor, reused by every batch)
and closed when :meth:`Engine.send` ends.

The engine opens the request cache (and backfills it with answers a caller kept that it lacks,
:meth:`Engine.prepare`) and keeps the caller's run records there (:meth:`Engine.record_run`). A
cache that cannot be opened, read or written costs a warning, never the answers. What a caller
does around the engine (translation's partial file, run records and metadata) stays with the
caller; :func:`ask` is the whole loop for a model used as an instrument.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, Literal, NamedTuple

from gendermt.core.errors import GenderMTError
from gendermt.data.progress import Progress
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
#: Seconds between two syncs to disk of what was answered (the caller's on ``SYNC``, e.g.
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


class Answer(NamedTuple):
    """One answer, for every item of ``group`` (a digest, or an item id without ``dedupe``):
    the raw output, its seconds (since its batch started; an entry's stored seconds), why it
    ended (``finish``), the run that made it (``run``) and whether it was taken as made
    elsewhere (``cached``: the request cache, a shared translation, another process) rather
    than sent by this run."""

    group: str
    raw: str
    seconds: float
    finish: str
    run: str | None
    cached: bool

    @classmethod
    def of_entry(cls, group: str, entry: Mapping[str, Any]) -> Answer:
        """The answer a cache entry (or a shared translation, ``{"raw"}``) gives."""
        return cls(group, entry["raw"], entry.get("seconds") or 0.0,
                   entry.get("finish") or "unknown", entry.get("run_id"), True)


class Sync:
    """Yielded by :meth:`Engine.send` when the caller's copy of what it was given is due to
    be made durable (translation fsyncs its partial file): at most every ``SYNC_EVERY``
    seconds, after the last batch and after a batch with failures, always before that
    batch's answers go to the cache (a kill between the two leaves answers only in the
    caller's copy: the resuming run backfills the cache from it)."""

    def __repr__(self) -> str:
        return "SYNC"


SYNC = Sync()


class Engine:
    """Sends ``requests`` (each answered once) to ``backend`` through the request cache.

    ``cache``: the request cache's directory (opened here, for a ``cacheable`` backend;
    None: no cache) or a cache already open. ``who`` names the caller in messages;
    ``digests`` (by item id) saves computing them again; ``dedupe``: identical requests
    (same digest) are sent once and their answer given to every item that asked (False for
    backends that answer per item); ``run_id`` is stored with each cache entry; ``kept_in``
    says where answers are kept besides the cache (a partial file), for messages;
    ``count_tokens``: count output tokens (``tokens``) with the backend's tokenizer.

    The calls, in order: :meth:`prepare` (what is answered already, what to send), then
    :meth:`send` (a generator: each answer as it arrives).
    """

    def __init__(self, backend: Any, cache: RequestCache | str | Path | None,
                 requests: Iterable[Request], *, who: str,
                 digests: Mapping[str, str] | None = None, dedupe: bool = True,
                 run_id: str | None = None, kept_in: str | Path | None = None,
                 count_tokens: bool = False) -> None:
        self.backend, self.who, self.run_id = backend, who, run_id
        self.cache = (cache if isinstance(cache, RequestCache)
                      else open_cache(cache if backend.cacheable else None))
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
        #: the requests that failed for good in the batch :meth:`send` failed on
        self.failed: list[Request] = []
        self._synced = time.monotonic()  # when answers were last synced to disk

    # ------------------------------------------------------------------ the look-up
    def prepare(self, order: Order, kept: Mapping[str, Mapping[str, Any]] | None = None,
                shared: Mapping[str, str] | None = None) -> dict[str, dict[str, Any]]:
        """The answers at hand by digest (:meth:`lookup`'s cache entries, then ``shared``
        raw outputs by digest, ``{"raw"}``), once ``kept`` answers the cache lacks are
        stored there (:meth:`backfill`); plans the rest (:meth:`plan`, in ``order``)."""
        at_hand = self.lookup()
        backfilled = self.backfill(kept or {})
        if backfilled:
            log.info("%d resumed outputs the request cache %s lacked (a kill between the two) "
                     "stored there", backfilled, self.cache.path)
        shared_found = {d: {"raw": shared[d]} for d in dict.fromkeys(self.digests.values())
                        if self.backend.cacheable and d in (shared or {}) and d not in at_hand}
        if shared_found:
            log.info("%d requests answered by the system's translation of the distinct sources",
                     len(shared_found))
        at_hand.update(shared_found)
        self.plan(at_hand, order)
        return at_hand

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


    # ------------------------------------------------------------------ the run records
    def record_run(self, run_id: str, record: Mapping[str, Any]) -> None:
        """Keep a run's record in the cache (a cache that cannot be written: a warning)."""
        try:
            self.cache.put_run(run_id, dict(record))
        except sqlite3.Error as exc:
            log.warning("the request cache %s cannot be written (%s)", self.cache.path, exc)

    def runs(self, run_ids: Iterable[str]) -> dict[str, dict]:
        """The cache's records of ``run_ids`` (none where it cannot be read)."""
        try:
            return self.cache.runs(run_ids)
        except sqlite3.Error:
            return {}

    # ------------------------------------------------------------------ the sending
    def send(self) -> Iterator[Answer | Sync]:
        """Send :attr:`to_send` (see :meth:`plan`) in batches, yielding each
        :class:`Answer` as it arrives (its seconds: since its batch started) and
        :data:`SYNC` when the caller's copy is due to be made durable (see :class:`Sync`).

        An item that fails for good does not discard its batch's other answers: they are
        yielded and cached, then the run fails naming the item(s) (:attr:`failed` holds
        them). The backend is closed (its ``close()``: connections, threads) when the
        sending ends; close the generator (``contextlib.closing``) if not iterating to its end.

        With a cache and ``dedupe``, each request is claimed in the cache before it is sent
        (:meth:`RequestCache.claim`): one that another process sharing the cache is sending
        now is not sent again; its answer is taken from the cache once that process stored
        it (an answer with ``cached`` set), and sent here only if that process gave it up
        (failed, died, or stopped refreshing its claims).
        """
        try:
            self._synced = time.monotonic()
            if self.cache.path is None or not self.dedupe:
                yield from self._send(self.to_send)
            else:
                yield from self._send_claimed()
        finally:  # the job's connections and threads
            close = getattr(self.backend, "close", None)
            if close is not None:
                close()

    def _send_claimed(self) -> Iterator[Answer | Sync]:
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
                    yield from self._send(ours, owner)
                if pending:
                    left: list[Request] = []
                    yield from self._answered_elsewhere(pending, left, wait=not ours)
                    pending = left
        finally:
            stop.set()
            beat.join()
            with contextlib.suppress(sqlite3.Error):
                self.cache.release(owner)

    def _answered_elsewhere(self, pending: list[Request], left: list[Request],
                            wait: bool) -> Iterator[Answer]:
        """The answers of ``pending`` that another process stored; those still missing go
        to ``left`` (after a short wait when nothing else is to be done)."""
        if wait:
            time.sleep(CLAIM_POLL)
        try:
            found = self.cache.entries(self.digests[r.item_id] for r in pending)
        except sqlite3.Error:
            found = {}
        for r in pending:
            entry = found.get(self.digests[r.item_id])
            if entry is None:
                left.append(r)
                continue
            group = self.group[r.item_id]
            self.from_elsewhere += len(self.items_of[group])
            yield Answer.of_entry(group, entry)

    def _send(self, requests: list[Request], owner: str | None = None
              ) -> Iterator[Answer | Sync]:
        """Send ``requests`` in batches (see :meth:`send`); ``owner``'s claims of each batch
        are released in the commit of its answers."""
        size = self.backend.batch_size
        for start in range(0, len(requests), size):
            batch = requests[start:start + size]
            answers = _Batch(self, batch)
            release = None if owner is None else (owner, [self.digests[r.item_id]
                                                          for r in batch])
            self.backend.finish_reasons = self.backend.generated_tokens = None
            try:
                for i, raw in self.backend.translate_each(batch):
                    answer = answers.take(i, raw)
                    if answer is not None:
                        yield answer
            except BaseException:
                # the caller could not keep an answer (its partial file on a full disk), the
                # backend failed or the sending was stopped: what arrived is paid for, and
                # goes to the cache before the error does, so a rerun sends none of it again
                self._store_batch(answers, release, durable=True)
                raise
            answers.check()
            # the caller's copy first (a kill between the two leaves answers only there:
            # the resuming run backfills the cache from it), synced when due
            now = time.monotonic()
            sync = bool(answers.failures) or start + size >= len(requests) or \
                now - self._synced >= SYNC_EVERY
            if sync:
                self._synced = now
                try:
                    yield SYNC
                except BaseException:  # the caller's copy cannot be synced: the cache's is
                    self._store_batch(answers, release, durable=True)
                    raise
            # one commit: the answers and the release of their claims (the heartbeat keeps
            # the others fresh: refreshing them all a batch rewrote every claim row)
            self._store_batch(answers, release, durable=sync)
            self._tally(batch, answers.outs)
            if answers.failures:
                self.failed = [r for r, _ in answers.failures]
                self._raise_failures(answers.failures, len(batch) - len(answers.failures))
            blank = sum(is_blank(raw) for raw in answers.outs)
            if blank:
                log.warning("%s: %d empty output(s) in this batch (kept%s, not cached)",
                            self.who, blank, f" in {self.kept_in}" if self.kept_in else "")

    def _store_batch(self, answers: _Batch, release: tuple[str, list[str]] | None,
                     durable: bool) -> None:
        """A batch's answers received so far into the cache, with the release of its claims
        (:meth:`store`), each answer's seconds the batch's time so far per item."""
        per_item = (time.perf_counter() - answers.b0) / len(answers.batch)
        self.store(answers.got, {self.digests[r.item_id]: per_item for r in answers.batch},
                   finish=answers.finish, durable=durable, release=release)

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

    def __init__(self, engine: Engine, batch: list[Request]) -> None:
        self.engine, self.batch = engine, batch
        self.b0 = time.perf_counter()
        self.failures: list[tuple[Request, Exception]] = []
        self.got: dict[str, str] = {}
        self.finish: dict[str, str] = {}
        self.outs: list[str] = []
        self.extra = 0

    def take(self, i: int, raw: Any) -> Answer | None:
        """Answer ``i`` (or the error it failed with): the answer to hand to the caller at
        once (None for a failure or an answer nobody asked for)."""
        engine, backend = self.engine, self.engine.backend
        if not 0 <= i < len(self.batch):
            self.extra += 1
            return None
        req = self.batch[i]
        if isinstance(raw, Exception):
            self.failures.append((req, raw))
            return None
        if not isinstance(raw, str):
            raise RuntimeError(f"{engine.who}: backend {backend.name} returned "
                               f"{type(raw).__name__} for item {req.item_id}")
        seconds = time.perf_counter() - self.b0
        digest = engine.digests[req.item_id]
        self.got[digest] = raw
        self.outs.append(raw)
        group = engine.group[req.item_id]
        self.finish[digest] = reason = backend.finish_reason_of(i, req)
        engine.answered += len(engine.items_of[group])
        return Answer(group, raw, seconds, reason, engine.run_id, False)

    def check(self) -> None:
        """A backend giving the wrong number of answers is an error."""
        if self.extra or len(self.outs) + len(self.failures) != len(self.batch):
            raise RuntimeError(f"{self.engine.who}: backend {self.engine.backend.name} "
                               f"returned {len(self.outs) + len(self.failures) + self.extra} "
                               f"answers for {len(self.batch)} requests")


def ask(backend: Any, cache: RequestCache | str | Path | None, requests: list[Request],
        desc: str, who: str = "judge", unit: str = "text", order: Order = "given"
        ) -> tuple[dict[str, str], int, int]:
    """Answers by item id, for a chat model used as an instrument (the GAMBIT judge, the
    ConGA annotator); ``cache``: as :class:`Engine`'s (a directory, or a cache open). Each
    request is looked up in the cache first; identical requests are sent once, in ``order``
    (default: as given); each batch's answers are cached as it returns, so a rerun after a
    kill sends only what was never answered. Returns ``(answers, requests sent, distinct
    requests answered from the cache)``."""
    engine = Engine(backend, cache, requests, who=who)
    raw = {d: e["raw"] for d, e in engine.prepare(order).items()}
    cached = len(raw)
    with Progress(len(requests), desc, unit=unit,
                  initial=sum(len(engine.items_of[d]) for d in raw)) as bar, \
            contextlib.closing(engine.send()) as answers:
        for answer in answers:
            if isinstance(answer, Answer):
                raw[answer.group] = answer.raw
                bar.update(len(engine.items_of[answer.group]))
    return ({r.item_id: raw[engine.digests[r.item_id]] for r in requests},
            len(engine.to_send), cached)
