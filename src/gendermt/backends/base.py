"""The interface every translation backend implements.

A backend turns a batch of :class:`Request` into raw output strings, in order. The runner
(:mod:`gendermt.translate`) owns everything around that: resumption, post-processing,
progress, timing and metadata, so backends stay small.
"""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pandas as pd

from gendermt.errors import GenderMTError


@dataclass(frozen=True)
class Request:
    item_id: str
    source: str                      # plain source text, for NMT systems
    messages: list[dict] = field(default_factory=list)  # chat form, for LLMs
    src_lang: str = ""
    tgt_lang: str = ""


class ItemFailed(GenderMTError):
    """One item could not be translated (after the backend's retries): names the item."""

    def __init__(self, item_id: str, message: str) -> None:
        super().__init__(message)
        self.item_id = item_id


class Backend(ABC):
    """A configured translation system. Subclasses set ``name`` and implement ``translate``."""

    name: ClassVar[str]
    #: GPUs one job of this backend asks for unless the system's config says otherwise.
    default_gpus: ClassVar[int] = 0
    default_batch_size: ClassVar[int] = 64

    #: Settings this backend reads, besides the common ``backend``, ``batch_size``, ``gpus``.
    settings_keys: ClassVar[frozenset[str]] = frozenset()
    #: Of those, the ones a system must set.
    required_keys: ClassVar[frozenset[str]] = frozenset()
    #: Of those, the ones that change how a job runs but not what it outputs (concurrency,
    #: timeouts): left out of the identity, so that changing them reuses earlier outputs.
    runtime_keys: ClassVar[frozenset[str]] = frozenset()
    #: Whether outputs depend on the prompt (the chat ``messages``); NMT systems read only
    #: the plain source, so their outputs are keyed (and cached) without the prompt, and
    #: every prompting strategy shares them.
    prompted: ClassVar[bool] = True
    #: Whether outputs go to the request cache (not worth it for systems that are lookups).
    cacheable: ClassVar[bool] = True
    #: Part of every request-cache key: bump it when the code that builds a request or
    #: reads an answer changes what is asked or kept, so that no old answer is served.
    request_version: ClassVar[int] = 1

    @classmethod
    def check_settings(cls, settings: dict[str, Any]) -> None:
        """Raise GenderMTError for settings this backend does not know or needs but lacks;
        called at workflow start-up, before any job runs."""
        known = cls.settings_keys | {"backend", "batch_size", "gpus"}
        unknown = sorted(set(settings) - known)
        if unknown:
            raise GenderMTError(f"backend {cls.name!r} has no setting(s) {unknown}; "
                                f"it knows {sorted(known)}")
        missing = sorted(cls.required_keys - set(settings))
        if missing:
            raise GenderMTError(f"backend {cls.name!r} needs {missing}")

    @classmethod
    def resolve_settings(cls, settings: dict[str, Any], context: dict[str, str]
                         ) -> dict[str, Any]:
        """The settings of one job, given its ``context`` (``benchmark``, ``prompt``); most
        backends use them as they are (the ``stored`` backend fills in its ``path``)."""
        return dict(settings)

    def __init__(self, settings: dict[str, Any], data: pd.DataFrame) -> None:
        self.settings = dict(settings)
        self.data = data
        self.batch_size = int(settings.get("batch_size", self.default_batch_size))

    def identity(self) -> dict[str, Any]:
        """What determines this backend's outputs (recorded beside them; a cache key later)."""
        skip = {"batch_size", "gpus"} | self.runtime_keys
        return {"backend": self.name, **{k: v for k, v in sorted(self.settings.items())
                                         if k not in skip}}

    def wire_request(self, request: Request) -> Any:
        """What the model receives for ``request`` when the backend can say (an API's
        request body); None: the identity and the request's fields stand for it."""
        return None

    def request_digest(self, request: Request) -> str:
        """The request cache's key of ``request``: what determines its raw output."""
        wire = self.wire_request(request)
        if wire is None:
            if not self.prompted:
                request = Request(request.item_id, request.source, [], request.src_lang,
                                  request.tgt_lang)
            parts: list[Any] = [self.identity(), request.source, request.messages,
                                request.src_lang, request.tgt_lang]
        else:
            parts = [{"backend": self.name}, wire]
        if self.request_version != 1:  # keys of version 1 are those written before it
            parts.append({"request_version": self.request_version})
        payload = json.dumps(parts, sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(payload.encode()).hexdigest()

    def legacy_digests(self, request: Request) -> list[str]:
        """Cache keys an earlier version of this backend gave ``request``, where the earlier
        code sent exactly what this one sends (their answers are reused, then stored under
        the current key); empty where keys never changed."""
        return []

    def provenance(self) -> dict[str, Any]:
        """What this run resolved (model commit, device, dtype), recorded beside the
        outputs; empty for backends with nothing to resolve."""
        return {}

    def count_tokens(self, texts: list[str]) -> int:
        """Output tokens, for the throughput line: the model's tokenizer where the backend
        has one, else whitespace-separated words."""
        return sum(len(t.split()) for t in texts)

    def translate_each(self, batch: list[Request]) -> Iterator[tuple[int, str | Exception]]:
        """``(position in batch, raw output or the exception that item failed with)`` as
        each output is ready, in any order (so that the runner keeps every answer it got);
        by default the whole batch at once."""
        yield from enumerate(self.translate(batch))

    @abstractmethod
    def translate(self, batch: list[Request]) -> list[str]:
        """Raw outputs for ``batch``, one per request, in the same order."""
