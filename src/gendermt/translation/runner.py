"""Running a system over one input file: resumable, with progress, timing and metadata.

Outputs are appended to ``<output>.partial`` as each arrives (flushed at once, so that even a
SIGKILL loses no answer received; fsynced at most once a second and after the last batch,
:data:`gendermt.translation.engine.SYNC_EVERY`). A job killed at any point and started
again reads what is there, drops a torn last line, and translates only the missing items.
Each partial record carries a key of what produced it (the backend's request digest), so that
a rerun after the prompt or the system changed does not reuse stale outputs. When every item
is present the records are written to ``<output>`` in input order and the partial file is
removed: the output exists only when it is complete. The workflow extracts hypotheses from
the raw outputs in a stage of its own (:mod:`gendermt.translation.extract`), so that a change of
post-processing needs no new translation.

The calling itself is :class:`gendermt.translation.engine.Engine`'s, as for the GAMBIT judge and the
ConGA annotator: before anything is sent, requests are looked up in the request cache
(:mod:`gendermt.translation.cache`); identical requests within the file are sent once; the rest go
in batches sorted by length (``longest-first``). Each answer goes to the partial file as it arrives,
each batch's answers then to the cache (a cache that cannot be written costs a warning, never the
job; answers a kill left in the partial file but not yet in the cache are stored there by the run
that resumes). One item that fails for good (the backend's
:class:`~gendermt.translation.backends.base.ItemFailed`) does not discard the answers of its batch:
they are kept, the batch is finished, and then the job fails naming the item(s). What stays here:
the partial file (resumption), the answers the system's shared source translations give, the run
records, and the output and its metadata.

The ``.meta.json`` keeps the record of every run that made the file's outputs (``runs``:
each run's start, resolved device and dtype, throughput), so that a rerun served from the
cache or resumed does not overwrite how the outputs were first made.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import logging
import os
import platform
import time
import uuid
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, Any

import gendermt
from gendermt.data.io import read_jsonl, write_json, write_jsonl
from gendermt.data.progress import Progress
from gendermt.translation.backends import Backend, Request, build_backend
from gendermt.translation.backends.base import TRUNCATED
from gendermt.translation.engine import Answer, Engine

log = logging.getLogger(__name__)


def _read_partial(path: Path) -> dict[str, dict]:
    """Records already produced; a line torn by a kill is dropped and the file rewritten."""
    if not path.exists():
        return {}
    done, torn = {}, 0
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            try:
                rec = json.loads(line)
                done[rec["item_id"]] = rec
            except (json.JSONDecodeError, KeyError, TypeError):
                torn += 1
    if torn:
        log.warning("%s: dropped %d incomplete line(s) left by an interrupted run", path, torn)
        write_jsonl(path, done.values())
    return done


def _runs_path(partial: Path) -> Path:
    """Beside the partial file: the record of each run that wrote to it (JSON lines)."""
    return partial.with_name(partial.name + ".runs")


def _read_runs(path: Path) -> dict[str, dict]:
    runs: dict[str, dict] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                rec = json.loads(line)
                runs[rec["run_id"]] = rec
            except (json.JSONDecodeError, KeyError, TypeError):
                continue  # a line torn by a kill
    return runs


def _earlier_runs(producers: dict[str, list[float]], known: dict[str, dict]) -> list[dict]:
    """Records of the earlier runs whose outputs this file holds, oldest first, with what
    they made here (``items_here``) and, for a run killed before its end, its throughput
    from the seconds per item it recorded."""
    found = []
    for run_id, seconds in producers.items():
        rec = dict(known.get(run_id) or {"run_id": run_id})
        rec["items_here"] = len(seconds)
        if "items_per_second" not in rec and seconds and sum(seconds) > 0:
            rec["items_per_second"] = round(len(seconds) / sum(seconds), 3)
        found.append(rec)
    return sorted(found, key=lambda r: r.get("started") or "")


#: The throughput figures with loading and discarded tokens apart (meta.json keys).
THROUGHPUT_APART = ("load_seconds", "generation_seconds", "items_per_second_generating",
                    "tokens_per_second_generating", "generated_tokens", "discarded_tokens",
                    "tokens_after_first_line")


def _throughput_apart(backend: Any, engine: Engine, sent: list[Request], seconds: float,
                      raws: list[str]) -> dict[str, Any]:
    """What the plain rate mixes: the seconds the job spent loading the model (about 8 s
    for a GGUF LLM, more on its first conversion) and the generation's own rate; the tokens
    the model generated, those the raw outputs do not keep (a stop string, end tokens; None
    where the backend does not say what it generated) and those after the outputs' first
    line, which ``first_line`` post-processing drops."""
    load = min(float(getattr(backend, "load_seconds", 0.0) or 0.0), seconds)
    generating = max(seconds - load, 1e-9)
    generated = engine.generated
    after = [raw.strip().split("\n", 1)[1] for raw in raws if "\n" in raw.strip()]
    return {"load_seconds": round(load, 3), "generation_seconds": round(seconds - load, 3),
            "items_per_second_generating": round(len(sent) / generating, 3),
            "tokens_per_second_generating": round(engine.tokens / generating, 3),
            "generated_tokens": generated,
            "discarded_tokens": (max(generated - engine.tokens, 0) if generated is not None
                                 else None),
            "tokens_after_first_line": backend.count_tokens(after) if after else 0}


def translate_file(inputs: str | Path, data: str | Path, system: str, settings: dict[str, Any],
                   output: str | Path, meta: str | Path, postprocess: Sequence[str] = (),
                   cache_dir: str | Path | None = None, benchmark: str = "",
                   threads: int | None = None,
                   shared: Mapping[str, str] | None = None) -> None:
    """Workflow stage: ``inputs/{prompt}.jsonl`` → ``raw/{system}/{prompt}.jsonl``.

    With ``cache_dir``, outputs are looked up in and added to the request cache there; ``benchmark``
    (and the inputs' prompt) fill placeholders in settings such as a stored file's path.
    ``postprocess`` gives each record's ``hypothesis`` (the workflow leaves it empty here and
    extracts in a stage of its own, :func:`gendermt.translation.extract.extract_file`). ``threads``
    (the job's) caps the CPU threads a model backend uses. Each output records why it ended
    (``finish_reason``: ``eos``/``stop``, ``length`` when cut off at the token budget, ``n/a`` for
    systems that do not generate; an output taken from the request cache has the reason its entry
    keeps, ``unknown`` for entries stored before it was kept). ``shared``: raw outputs by request
    digest this system already made for every prompt
    (:mod:`gendermt.translation.source_translations`), taken like cache entries.
    """
    records = read_jsonl(inputs)
    prompt = records[0]["prompt"] if records else ""
    translate_records(records, job_backend(settings, data, benchmark, prompt, threads), system,
                      output, meta, postprocess, cache_dir, benchmark, shared)


def job_backend(settings: dict[str, Any], data: str | Path, benchmark: str, prompt: str,
                threads: int | None) -> Backend:
    """The job's backend: its settings resolved, once, for the job's ``benchmark`` and
    ``prompt`` (such as a stored file's path), with the job's CPU ``threads``."""
    backend = build_backend(settings, data, {"benchmark": benchmark, "prompt": prompt})
    backend.threads = threads
    return backend


def translate_records(records: list[dict], backend: Backend, system: str, output: str | Path,
                      meta: str | Path, postprocess: Sequence[str] = (),
                      cache_dir: str | Path | None = None, benchmark: str = "",
                      shared: Mapping[str, str] | None = None) -> None:
    """:func:`translate_file` for inputs' ``records`` already read and the job's ``backend``
    (:func:`job_backend`)."""
    output = Path(output)
    backend.system_name = system  # its errors name the system (a model's are the model's)
    requests = [Request(r["item_id"], r["source"], r["messages"], r.get("src_lang", ""),
                        r.get("tgt_lang", "")) for r in records]
    # Imported by name, so that the translation job's code fingerprint leaves it out: the
    # workflow extracts hypotheses in a stage of its own (`extract`), and an edit of the
    # post-processing code must not redo translations.
    extract = importlib.import_module("gendermt.translation.postprocess").pipeline(postprocess)
    job = _open_job(system, records, requests, backend, output, cache_dir)
    cached = _answers_at_hand(job, shared)
    job.to_send = job.engine.to_send
    if job.to_send:  # a paid service states (and may refuse) what it is about to send
        backend.before_sending(job.to_send)
    job.this_run = _run_record(job.run_id, system, benchmark,
                               records[0]["prompt"] if records else "")
    t0 = time.perf_counter()
    job.partial.parent.mkdir(parents=True, exist_ok=True)
    with job.partial.open("a", encoding="utf-8") as fh, \
            Progress(len(requests), f"translate {system}", unit="item",
                     initial=len(job.done)) as bar:
        writer = _PartialWriter(fh, job.done, job.keys, job.engine.items_of)
        n_cached = _translate(job, writer, cached, bar, t0)
    made = _measure(job, t0)
    _log_throughput(job, made, n_cached)
    _finish_run(job, made)
    runs = _runs_made(job, made.answered)
    finishes = _write_output(job, output, extract)
    write_json(meta, _metadata(job, postprocess, made, n_cached, runs, finishes))
    job.partial.unlink(missing_ok=True)
    job.runs_file.unlink(missing_ok=True)


# The parts of translate_file, in the order it runs them.
@dataclass
class _Job:
    """What one translation job works with: its inputs' records and their requests, the
    system's backend (and its identity), each request's digest and the short ``key``
    partial records carry, the partial file and the records in it (``done``: resumed, then
    this run's), the requests it lacked (``todo``), this run's id, the engine, the requests
    it sends (``to_send``, once planned) and this run's record (``this_run``)."""

    system: str
    records: list[dict]
    requests: list[Request]
    backend: Any
    identity: dict[str, Any]
    digests: dict[str, str]
    keys: dict[str, str]
    partial: Path
    done: dict[str, dict]
    todo: list[Request]
    run_id: str
    engine: Engine
    to_send: list[Request] = field(default_factory=list)
    this_run: dict[str, Any] = field(default_factory=dict)

    @property
    def runs_file(self) -> Path:
        return _runs_path(self.partial)

    def save_run(self, **stats: Any) -> None:
        """Add ``stats`` to this run's record and append it to the runs file and the
        request cache's runs."""
        self.this_run.update(stats)
        if not self.to_send:  # a run that sent nothing made nothing to record
            return
        with self.runs_file.open("a", encoding="utf-8") as rf:
            rf.write(json.dumps(self.this_run, ensure_ascii=False) + "\n")
        self.engine.record_run(self.run_id, self.this_run)


@dataclass
class _PartialWriter:
    """The partial file, open for appending: each answer is written for every item that
    asked for it (and kept in ``done``) and flushed at once."""

    fh: IO[str]
    done: dict[str, dict]
    keys: Mapping[str, str]
    items_of: Mapping[str, list[Request]]

    def take(self, answer: Answer) -> int:
        """Record the answer of its group's items; returns how many items it answers."""
        for req in self.items_of[answer.group]:
            rec = {"item_id": req.item_id, "key": self.keys[req.item_id], "raw": answer.raw,
                   "seconds": round(answer.seconds, 6), "finish": answer.finish,
                   **({"cached": True} if answer.cached else {}),
                   **({"run": answer.run} if answer.run else {})}
            self.done[req.item_id] = rec
            self.fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
        self.fh.flush()  # in the OS's hands: a SIGKILL no longer loses it
        return len(self.items_of[answer.group])

    def sync(self) -> None:
        os.fsync(self.fh.fileno())


@dataclass
class _Made:
    """What this run sent and answered, in how long (``apart``: :func:`_throughput_apart`)."""

    sent: int
    answered: int
    tokens: int
    seconds: float
    apart: dict[str, Any]

    @property
    def rate(self) -> float:
        return self.sent / max(self.seconds, 1e-9)

    @property
    def token_rate(self) -> float:
        return self.tokens / max(self.seconds, 1e-9)


def _resume(partial: Path, keys: Mapping[str, str]) -> dict[str, dict]:
    """The partial file's records made for these requests (their ``key``); those made for
    other requests or system settings are dropped from it."""
    previous = _read_partial(partial)
    done = {k: v for k, v in previous.items() if v.get("key") == keys.get(k)}
    if len(done) < len(previous):
        log.warning("%s: discarding %d outputs made for other requests or system settings",
                    partial, len(previous) - len(done))
        write_jsonl(partial, done.values())
    return done


def _open_job(system: str, records: list[dict], requests: list[Request], backend: Any,
              output: Path, cache_dir: str | Path | None) -> _Job:
    """The job's digests, what its partial file holds, its request cache and its engine."""
    identity = backend.identity()
    digests = {r.item_id: backend.request_digest(r) for r in requests}
    keys = {item: digest[:16] for item, digest in digests.items()}
    partial = output.with_name(output.name + ".partial")
    done = _resume(partial, keys)
    todo = [r for r in requests if r.item_id not in done]
    if done:
        log.info("resuming %s: %d of %d items already translated", partial, len(done),
                 len(requests))
    run_id = uuid.uuid4().hex[:12]
    # Identical requests within the file are sent once (for systems whose output is a
    # function of the request: lookups such as the oracles answer per item), longest first;
    # the engine opens the request cache (for a cacheable backend).
    engine = Engine(backend, cache_dir, todo, who=system, digests=digests,
                    dedupe=backend.cacheable, run_id=run_id, kept_in=partial, count_tokens=True)
    return _Job(system, records, requests, backend, identity, digests, keys, partial, done,
                todo, run_id, engine)


def _answers_at_hand(job: _Job, shared: Mapping[str, str] | None) -> dict[str, dict]:
    """Answers by digest that need no sending (the request cache's, then the system's shared
    translation of the sources'), once the engine stored there the resumed answers this
    system made that the cache lacks (not those taken from the cache or shared translations,
    which a `forget` may have meant to drop); the engine plans the rest, longest first."""
    kept = {job.digests[i]: r for i, r in job.done.items()
            if job.backend.cacheable and not r.get("cached")}
    return job.engine.prepare("longest-first", kept=kept, shared=shared)


def _run_record(run_id: str, system: str, benchmark: str, prompt: str) -> dict[str, Any]:
    """This run's record as it starts (its figures are added as they are known)."""
    started = datetime.now(timezone.utc).isoformat(timespec="seconds")
    return {"run_id": run_id, "started": started, "system": system,
            "benchmark": benchmark, "prompt": prompt,
            "gendermt": gendermt.__version__, "python": platform.python_version(),
            "host": platform.node()}


def _translate(job: _Job, writer: _PartialWriter, cached: Mapping[str, Mapping[str, Any]],
               bar: Progress, t0: float) -> int:
    """Write the answers at hand to the partial file, then those the engine sends, each
    written as it arrives. Returns how many items the request cache answered (another job
    sharing it included)."""
    engine = job.engine
    n_cached = sum(writer.take(Answer.of_entry(d, e)) for d, e in cached.items())
    if n_cached:
        log.info("%d items found in the request cache %s", n_cached, engine.cache.path)
        writer.sync()
        bar.update(n_cached)
    if job.to_send:
        job.save_run(resolved=job.backend.provenance())
    # Each answer reaches the partial file as it arrives (those another job sharing the
    # cache answered meanwhile, as cached); the engine has it fsynced (SYNC) at most every
    # SYNC_EVERY seconds and after the last batch, before that batch's answers go to the
    # cache: a kill between the two leaves answers only in the partial file (the resuming
    # run backfills them).
    try:
        with contextlib.closing(engine.send()) as answers:
            for answer in answers:
                if isinstance(answer, Answer):
                    bar.update(writer.take(answer))
                else:
                    writer.sync()
    except Exception:
        if engine.failed:  # items that failed for good: the batch's answers are kept
            job.save_run(requests_sent=engine.sent,
                         seconds=round(time.perf_counter() - t0, 3),
                         failed_items=[r.item_id for r in engine.failed])
        raise
    return n_cached + engine.from_elsewhere


def _measure(job: _Job, t0: float) -> _Made:
    """This run's figures, since ``t0``."""
    engine = job.engine
    tokens, answered = engine.tokens, engine.answered
    seconds = time.perf_counter() - t0
    apart = _throughput_apart(job.backend, engine, job.to_send, seconds,
                              [job.done[r.item_id]["raw"] for r in job.to_send])
    return _Made(engine.sent, answered, tokens, seconds, apart)


def _log_throughput(job: _Job, made: _Made, n_cached: int) -> None:
    if job.todo:
        log.info("throughput %s: %d requests sent in %.2f s: %.2f items/s, %.1f tokens/s "
                 "(%d output tokens); %d items from the cache, %d resumed", job.system,
                 made.sent, made.seconds, made.rate, made.token_rate, made.tokens, n_cached,
                 len(job.requests) - len(job.todo))
    if job.to_send:
        apart = made.apart
        log.info("throughput %s, loading apart: %.2f s loading the model, %.2f items/s in "
                 "%.2f s generating; %s generated tokens, %s not kept in the outputs, %d "
                 "after their first line", job.system, apart["load_seconds"],
                 apart["items_per_second_generating"], apart["generation_seconds"],
                 apart["generated_tokens"], apart["discarded_tokens"],
                 apart["tokens_after_first_line"])


def _finish_run(job: _Job, made: _Made) -> None:
    """Check that every item has an output, and record this run's figures."""
    missing = job.keys.keys() - job.done.keys()
    if missing:  # the loop covers every request, so this is a bug, not bad input
        raise RuntimeError(f"{len(missing)} items have no translation")
    stats = {"requests_sent": made.sent, "items": made.answered,
             "seconds": round(made.seconds, 3), "output_tokens": made.tokens,
             "items_per_second": round(made.rate, 3),
             "tokens_per_second": round(made.token_rate, 3), **made.apart,
             "resolved": job.backend.provenance(),
             "finished": datetime.now(
                 timezone.utc).isoformat(timespec="seconds")}
    if job.to_send:
        job.save_run(**stats)


def _runs_made(job: _Job, answered: int) -> list[dict]:
    """Who made the outputs: earlier runs (resumed from the partial file, or served from the
    cache) keep their records; this run's is added when it sent anything."""
    producers: dict[str, list[float]] = {}
    for r in job.requests:
        rec = job.done[r.item_id]
        if rec.get("run") and rec["run"] != job.run_id:
            producers.setdefault(rec["run"], []).append(float(rec.get("seconds") or 0))
    known = _read_runs(job.runs_file)
    known.update({k: v for k, v in job.engine.runs(producers).items() if k not in known})
    return _earlier_runs(producers, known) + ([{**job.this_run, "items_here": answered}]
                                              if job.to_send else [])


def _write_output(job: _Job, output: Path, extract: Any) -> Counter:
    """The outputs in input order, each with its ``hypothesis``; returns the count of each
    finish reason."""
    done = job.done
    write_jsonl(output, ({"item_id": r.item_id, "key": job.keys[r.item_id],
                          "raw": done[r.item_id]["raw"],
                          "hypothesis": extract(done[r.item_id]["raw"]),
                          "seconds": done[r.item_id]["seconds"],
                          "finish_reason": done[r.item_id].get("finish", "unknown")}
                         for r in job.requests))
    finishes = Counter(done[r.item_id].get("finish", "unknown") for r in job.requests)
    if finishes.get(TRUNCATED):
        log.warning("%s: %d of %d outputs were cut off at the token budget (finish_reason "
                    "length)", job.system, finishes[TRUNCATED], len(job.requests))
    return finishes


def _metadata(job: _Job, postprocess: Sequence[str], made: _Made, n_cached: int,
              runs: list[dict], finishes: Counter) -> dict[str, Any]:
    """The ``.meta.json`` of the outputs."""
    records, backend, to_send = job.records, job.backend, job.to_send
    # The throughput and resolved settings of the run(s) that made the outputs: this run's
    # when it sent requests, else the first earlier run's (not a cache's "0 items/s").
    made_by = job.this_run if to_send else next(iter(runs), {})
    return {
        "system": job.system, "backend": job.identity, "postprocess": list(postprocess),
        "prompt": records[0]["prompt"] if records else None,
        "template_version": records[0].get("template_version") if records else None,
        "template_sha256": records[0].get("template_sha256") if records else None,
        "items": len(job.requests), "translated_this_run": made.answered,
        "resumed_items": len(job.requests) - len(job.todo),
        "seconds_this_run": round(made.seconds, 3),
        "requests_sent": job.engine.sent, "cached_items": n_cached,
        "output_tokens": made.tokens if to_send else made_by.get("output_tokens", 0),
        "items_per_second": round(made.rate, 3) if to_send else made_by.get("items_per_second"),
        "tokens_per_second": (round(made.token_rate, 3) if to_send
                              else made_by.get("tokens_per_second")),
        "resolved": backend.provenance() if to_send else made_by.get("resolved",
                                                                     backend.provenance()),
        # The same figures with the model's loading apart, and the tokens it generated that
        # the outputs do not keep (THROUGHPUT_APART; those of the run that made the outputs)
        **{key: made.apart[key] if to_send else made_by.get(key) for key in THROUGHPUT_APART},
        "finish_reasons": dict(sorted(finishes.items())),
        "truncated": finishes.get(TRUNCATED, 0),
        "runs": runs,
        "started": job.this_run["started"], "gendermt": gendermt.__version__,
        "python": platform.python_version(),
    }
