"""Running a system over one input file: resumable, with progress, timing and metadata.

Outputs are appended to ``<output>.partial`` (flushed and fsynced per batch) as they are
produced. A job killed at any point and started again reads what is there, drops a torn last
line, and translates only the missing items. Each partial record carries a key of what
produced it (backend identity and the request), so that a rerun after the prompt or the
system changed does not reuse stale outputs. When every item is present the records are
written to ``<output>`` in input order and the partial file is removed: the output exists
only when it is complete. Hypotheses are extracted from the raw outputs at that point, so a
change of post-processing alone needs no new translation.

Before anything is sent, requests are looked up in the request cache (:mod:`gendermt.cache`);
identical requests within the file are sent once; the rest go in batches sorted by length.
Each batch's outputs go to the partial file first, then to the cache.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import os
import platform
import time
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pandas as pd
from tqdm import tqdm

import gendermt
from gendermt.backends import Request, build_backend
from gendermt.cache import RequestCache
from gendermt.io import read_jsonl, write_json, write_jsonl
from gendermt.postprocess import pipeline

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
            except (json.JSONDecodeError, KeyError):
                torn += 1
    if torn:
        log.warning("%s: dropped %d incomplete line(s) left by an interrupted run", path, torn)
        write_jsonl(path, done.values())
    return done


def request_digest(identity: dict[str, Any], request: Request) -> str:
    """What determines a raw output: the backend's identity (backend, model, revision,
    decoding settings) and the rendered request. The request cache's key."""
    payload = json.dumps([identity, request.source, request.messages, request.src_lang,
                          request.tgt_lang], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(payload.encode()).hexdigest()


def request_key(identity: dict[str, Any], request: Request) -> str:
    """The short form of :func:`request_digest` that partial records carry."""
    return request_digest(identity, request)[:16]


def translation_cache_dir(config: dict[str, Any]) -> str | None:
    """The request cache folder a workflow config asks for (None: no cache)."""
    cache = config.get("cache") or {}
    return cache.get("dir", "results/cache") if cache.get("enabled", True) else None


def _length(request: Request) -> int:
    return len(request.source) + sum(len(str(m.get("content", ""))) for m in request.messages)


def translate_file(inputs: str | Path, data: str | Path, system: str, settings: dict[str, Any],
                   output: str | Path, meta: str | Path, postprocess: Sequence[str] = (),
                   cache_dir: str | Path | None = None, benchmark: str = "",
                   shared: Mapping[str, str] | None = None) -> None:
    """Workflow stage: ``inputs/{prompt}.jsonl`` → ``translations/{system}/{prompt}.jsonl``.

    With ``cache_dir``, outputs are looked up in and added to the request cache there;
    ``benchmark`` (and the inputs' prompt) fill placeholders in settings such as a stored
    file's path. ``shared``: raw outputs by request digest already made for this system
    (:mod:`gendermt.source_translations`), used before the cache.
    """
    output = Path(output)
    records = read_jsonl(inputs)
    requests = [Request(r["item_id"], r["source"], r["messages"], r.get("src_lang", ""),
                        r.get("tgt_lang", "")) for r in records]
    extract = pipeline(postprocess)
    context = {"benchmark": benchmark, "prompt": records[0]["prompt"] if records else ""}
    backend = build_backend(settings, pd.read_parquet(data), context)
    identity = backend.identity()
    digests = {r.item_id: request_digest(identity, r if backend.prompted else
                                         dataclasses.replace(r, messages=[]))
               for r in requests}
    keys = {item: digest[:16] for item, digest in digests.items()}
    partial = output.with_name(output.name + ".partial")
    previous = _read_partial(partial)
    done = {k: v for k, v in previous.items() if v.get("key") == keys.get(k)}
    if len(done) < len(previous):
        log.warning("%s: discarding %d outputs made for other requests or system settings",
                    partial, len(previous) - len(done))
        write_jsonl(partial, done.values())
    todo = [r for r in requests if r.item_id not in done]
    if done:
        log.info("resuming %s: %d of %d items already translated", partial, len(done),
                 len(requests))
    cache = RequestCache(cache_dir if backend.cacheable else None)
    shared = shared if backend.cacheable else None  # keyed by request: lookups answer per item
    hits = {digests[r.item_id]: shared[digests[r.item_id]] for r in todo
            if digests[r.item_id] in (shared or {})}
    if hits:
        log.info("%d requests from the system's translation of the distinct sources", len(hits))
    hits.update(cache.get_many(digests[r.item_id] for r in todo if digests[r.item_id] not in hits))
    # Identical requests within the file are sent once (for systems whose output is a
    # function of the request: lookups such as the oracles answer per item). The longest go
    # first, so that a batch too large for memory fails at once, and batches hold similar
    # lengths (less padding).
    group = {r.item_id: digests[r.item_id] if backend.cacheable else r.item_id for r in todo}
    unique: dict[str, Request] = {}
    for req in todo:
        if group[req.item_id] not in hits:
            unique.setdefault(group[req.item_id], req)
    to_send = sorted(unique.values(), key=_length, reverse=True)
    items_of: dict[str, list[Request]] = {}
    for req in todo:
        items_of.setdefault(group[req.item_id], []).append(req)

    started = datetime.now(timezone.utc).isoformat(timespec="seconds")
    t0 = time.perf_counter()
    tokens = 0
    partial.parent.mkdir(parents=True, exist_ok=True)
    with partial.open("a", encoding="utf-8") as fh, \
            tqdm(total=len(requests), initial=len(done), desc=f"{system}", unit="item",
                 mininterval=1.0) as bar:

        def record(digest: str, raw: str, seconds: float, cached: bool) -> int:
            for req in items_of[digest]:
                rec = {"item_id": req.item_id, "key": keys[req.item_id], "raw": raw,
                       "seconds": round(seconds, 6), **({"cached": True} if cached else {})}
                done[req.item_id] = rec
                fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
            return len(items_of[digest])

        n_cached = sum(record(d, raw, 0.0, True) for d, raw in hits.items())
        if n_cached:
            log.info("%d items found in the request cache %s", n_cached, cache.path)
            fh.flush()
            os.fsync(fh.fileno())
            bar.update(n_cached)
        for start in range(0, len(to_send), backend.batch_size):
            batch = to_send[start:start + backend.batch_size]
            b0 = time.perf_counter()
            raws = backend.translate(batch)
            if len(raws) != len(batch):
                raise RuntimeError(f"backend {backend.name} returned {len(raws)} outputs for "
                                   f"{len(batch)} requests")
            per_item = (time.perf_counter() - b0) / len(batch)
            n = sum(record(group[req.item_id], raw, per_item, False)
                    for req, raw in zip(batch, raws, strict=True))
            fh.flush()
            os.fsync(fh.fileno())
            # After the partial file: a kill between the two only costs a cache entry.
            cache.put_many({digests[req.item_id]: raw for req, raw in zip(batch, raws,
                                                                         strict=True)},
                           backend.name)
            tokens += backend.count_tokens(raws)
            bar.update(n)
    seconds = time.perf_counter() - t0
    rate = len(to_send) / max(seconds, 1e-9)
    token_rate = tokens / max(seconds, 1e-9)
    if todo:
        log.info("throughput %s: %d requests sent in %.2f s: %.2f items/s, %.1f tokens/s "
                 "(%d output tokens); %d items from the cache, %d resumed", system,
                 len(to_send), seconds, rate, token_rate, tokens, n_cached,
                 len(requests) - len(todo))

    missing = keys.keys() - done.keys()
    if missing:  # the loop covers every request, so this is a bug, not bad input
        raise RuntimeError(f"{len(missing)} items have no translation")
    write_jsonl(output, ({"item_id": r.item_id, "raw": done[r.item_id]["raw"],
                          "hypothesis": extract(done[r.item_id]["raw"]),
                          "seconds": done[r.item_id]["seconds"]} for r in requests))
    write_json(meta, {
        "system": system, "backend": identity, "postprocess": list(postprocess),
        "prompt": records[0]["prompt"] if records else None,
        "template_version": records[0].get("template_version") if records else None,
        "template_sha256": records[0].get("template_sha256") if records else None,
        "items": len(requests), "translated_this_run": len(todo),
        "resumed_items": len(requests) - len(todo), "seconds_this_run": round(seconds, 3),
        "requests_sent": len(to_send), "cached_items": n_cached,
        "output_tokens": tokens, "items_per_second": round(rate, 3),
        "tokens_per_second": round(token_rate, 3),
        "resolved": backend.provenance(),
        "started": started, "gendermt": gendermt.__version__, "python": platform.python_version(),
    })
    partial.unlink(missing_ok=True)
