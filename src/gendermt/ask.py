"""Ask a chat backend a list of requests through the request cache: the loop the GAMBIT judge
and the ConGA annotator share (translation has its own, in ``translate.translate_file``, with
length-sorted batches and checkpoints)."""

from __future__ import annotations

from typing import Any

from tqdm import tqdm

from gendermt.cache import RequestCache


def ask(backend: Any, cache: RequestCache, requests: list[Any], desc: str, who: str = "judge",
        unit: str = "text") -> tuple[dict[str, str], int, int]:
    """Answers by item id. Each request is looked up in the cache first; identical requests
    are sent once, in the order given (what is batched together can change an LLM's
    answers). Returns ``(answers, sent, cached)``."""
    digests = {r.item_id: backend.request_digest(r) for r in requests}
    raw = cache.get_many(digests.values())
    cached = len(raw)
    pending: dict[str, Any] = {}
    for r in requests:
        if digests[r.item_id] not in raw:
            pending.setdefault(digests[r.item_id], r)
    todo = list(pending.values())
    with tqdm(total=len(requests), initial=len(requests) - len(todo), desc=desc, unit=unit,
              mininterval=1.0) as bar:
        for start in range(0, len(todo), backend.batch_size):
            batch = todo[start:start + backend.batch_size]
            answers = backend.translate(batch)
            if len(answers) != len(batch):
                raise RuntimeError(f"{who} backend returned {len(answers)} answers for "
                                   f"{len(batch)} requests")
            got = {digests[r.item_id]: a for r, a in zip(batch, answers, strict=True)}
            cache.put_many(got, backend.name)
            raw.update(got)
            bar.update(len(batch))
    return {r.item_id: raw[digests[r.item_id]] for r in requests}, len(todo), cached
