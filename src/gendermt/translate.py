"""Running a system over one input file: resumable, with progress, timing and metadata.

Outputs are appended to ``<output>.partial`` (flushed and fsynced per batch) as they are
produced. A job killed at any point and started again reads what is there, drops a torn last
line, and translates only the missing items. Each partial record carries a key of what
produced it (backend identity and the request), so that a rerun after the prompt or the
system changed does not reuse stale outputs. When every item is present the records are
written to ``<output>`` in input order and the partial file is removed: the output exists
only when it is complete. Hypotheses are extracted from the raw outputs at that point, so a
change of post-processing alone needs no new translation.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import platform
import time
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pandas as pd
from tqdm import tqdm

import gendermt
from gendermt.backends import Request, build_backend
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


def request_key(identity: dict[str, Any], request: Request) -> str:
    """What determines a raw output: the backend's identity and the request itself."""
    payload = json.dumps([identity, request.source, request.messages, request.src_lang,
                          request.tgt_lang], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(payload.encode()).hexdigest()[:16]


def translate_file(inputs: str | Path, data: str | Path, system: str, settings: dict[str, Any],
                   output: str | Path, meta: str | Path, postprocess: Sequence[str] = (),
                   benchmark: str = "") -> None:
    """Workflow stage: ``inputs/{prompt}.jsonl`` → ``translations/{system}/{prompt}.jsonl``."""
    output = Path(output)
    records = read_jsonl(inputs)
    requests = [Request(r["item_id"], r["source"], r["messages"], r.get("src_lang", ""),
                        r.get("tgt_lang", "")) for r in records]
    extract = pipeline(postprocess)
    context = {"benchmark": benchmark, "prompt": records[0]["prompt"] if records else ""}
    backend = build_backend(settings, pd.read_parquet(data), context)
    identity = backend.identity()
    keys = {r.item_id: request_key(identity, r) for r in requests}
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

    started = datetime.now(timezone.utc).isoformat(timespec="seconds")
    t0 = time.perf_counter()
    partial.parent.mkdir(parents=True, exist_ok=True)
    with partial.open("a", encoding="utf-8") as fh, \
            tqdm(total=len(requests), initial=len(done), desc=f"{system}", unit="item") as bar:
        for start in range(0, len(todo), backend.batch_size):
            batch = todo[start:start + backend.batch_size]
            b0 = time.perf_counter()
            raws = backend.translate(batch)
            if len(raws) != len(batch):
                raise RuntimeError(f"backend {backend.name} returned {len(raws)} outputs for "
                                   f"{len(batch)} requests")
            per_item = (time.perf_counter() - b0) / len(batch)
            for req, raw in zip(batch, raws, strict=True):
                rec = {"item_id": req.item_id, "key": keys[req.item_id], "raw": raw,
                       "seconds": round(per_item, 6)}
                done[req.item_id] = rec
                fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
            bar.update(len(batch))
    seconds = time.perf_counter() - t0
    if todo:
        log.info("%s: %d items in %.2f s (%.1f items/s)", system, len(todo), seconds,
                 len(todo) / max(seconds, 1e-9))

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
        "started": started, "gendermt": gendermt.__version__, "python": platform.python_version(),
    })
    partial.unlink(missing_ok=True)
