"""The interface every translation backend implements.

A backend turns a batch of :class:`Request` into raw output strings, in order. The runner
(:mod:`gendermt.translation.runner`) owns everything around that: resumption, post-processing,
progress, timing and metadata, so backends stay small.
"""

from __future__ import annotations

import hashlib
import json
import os
from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from gendermt.core.errors import GenderMTError

if TYPE_CHECKING:  # only annotations here: planning never imports pandas
    import pandas as pd


@dataclass(frozen=True)
class Request:
    item_id: str
    source: str                      # plain source text, for NMT systems
    messages: list[dict] = field(default_factory=list)  # chat form, for LLMs
    src_lang: str = ""
    tgt_lang: str = ""


#: Settings every system may have: how a job runs, or what kind of system it is (``kind``:
#: ``model``, ``baseline`` or ``oracle``; tables that average over systems leave baselines
#: and oracles out). None of them changes an output, so none is in the identity.
COMMON_KEYS = frozenset({"backend", "batch_size", "gpus", "threads", "kind"})
KINDS = ("model", "baseline", "oracle")
#: ``finish_reasons`` values: ended by the model (``eos``; ``stop`` as servers say), cut off
#: at the token budget (``length``), or not a generator (``n/a``: lookups, rule systems).
TRUNCATED = "length"


class ItemFailed(GenderMTError):
    """One item could not be translated (after the backend's retries): names the item."""

    def __init__(self, item_id: str, message: str) -> None:
        super().__init__(message)
        self.item_id = item_id


class Backend(ABC):
    """A configured translation system. Subclasses set ``name`` and implement ``translate``
    (which may set ``finish_reasons``, one per output, for the batch it just answered)."""

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
    #: The system's ``kind`` unless its config says otherwise (see ``KINDS``).
    default_kind: ClassVar[str] = "model"
    #: Whether the backend reads the benchmark's data table (``self.data``); a job whose
    #: backend does not is given None and never imports pandas (about 0.45 s a job).
    reads_data: ClassVar[bool] = True
    #: Whether ``model`` may name a GGUF file (an input of its jobs: a changed file reruns
    #: them; gendermt.translation.backends.gguf converts it for a causal LM).
    reads_gguf: ClassVar[bool] = False

    @classmethod
    def load_data(cls, path: str | os.PathLike[str]) -> Any:
        """The data table a job's backend is built with, read from its parquet file (None
        when the backend does not read it)."""
        if not cls.reads_data:
            return None
        import pandas as pd

        return pd.read_parquet(path)

    @classmethod
    def has_chat_template(cls, settings: dict[str, Any]) -> bool:
        """Whether an LLM system without a ``chat_template`` setting is a chat model, read
        without loading weights (``gendermt run``'s choice of prompts): a Hub id or a server
        is one unless told ``chat_template: none``."""
        return True

    @classmethod
    def check_settings(cls, settings: dict[str, Any]) -> None:
        """Raise GenderMTError for settings this backend does not know or needs but lacks;
        called at workflow start-up, before any job runs."""
        known = cls.settings_keys | COMMON_KEYS
        unknown = sorted(set(settings) - known)
        if unknown:
            raise GenderMTError(f"backend {cls.name!r} has no setting(s) {unknown}; "
                                f"it knows {sorted(known)}")
        missing = sorted(cls.required_keys - set(settings))
        if missing:
            raise GenderMTError(f"backend {cls.name!r} needs {missing}")
        if settings.get("kind", "model") not in KINDS:
            raise GenderMTError(f"backend {cls.name!r}: kind must be one of {list(KINDS)}, "
                                f"not {settings['kind']!r}")
        if "threads" in settings and int(settings["threads"]) < 1:
            raise GenderMTError(f"backend {cls.name!r}: threads must be at least 1")

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
        #: CPU threads the job may use (the rule's `threads:`); model backends give them
        #: to torch. None: the library's own default.
        self.threads: int | None = None
        #: Why each output of the last batch ended; backends that generate set it.
        self.finish_reasons: list[str] | None = None
        #: Tokens the model generated for the last batch, those not kept in the outputs
        #: (a stop string and what follows, end tokens) included; None: not said.
        self.generated_tokens: int | None = None
        #: Seconds the job spent loading the model (0: nothing to load, or not yet).
        self.load_seconds: float = 0.0

    @classmethod
    def missing_credentials(cls, settings: dict[str, Any]) -> list[str]:
        """What a system of these settings lacks to authenticate, one line each (checked at
        start-up besides ``api_key_env``: a vendor's credential chain); none by default."""
        return []

    def before_sending(self, requests: list[Request]) -> None:
        """Called once before the first of ``requests`` (those the job will send: not
        answered by the request cache or the partial file) is sent; a paid service states
        their characters and cost here and may refuse them (``max_characters``)."""
        return None

    def finish_reason_of(self, index: int, request: Request) -> str:
        """Why the output at ``index`` of the batch just answered ended (``n/a`` where the
        backend does not say: it does not generate)."""
        reasons = self.finish_reasons
        return reasons[index] if reasons is not None and index < len(reasons) else "n/a"

    def identity(self) -> dict[str, Any]:
        """What determines this backend's outputs (recorded beside them; a cache key later)."""
        skip = {"batch_size", "gpus", "threads", "kind"} | self.runtime_keys
        return {"backend": self.name, **{k: v for k, v in sorted(self.settings.items())
                                         if k not in skip}}

    @classmethod
    def output_settings(cls, settings: dict[str, Any]) -> dict[str, Any]:
        """The settings that change this system's outputs (a translation job's params): all
        but ``batch_size``, ``gpus``, ``threads``, ``kind`` and the ``runtime_keys``."""
        skip = {"batch_size", "gpus", "threads", "kind"} | cls.runtime_keys
        return {k: v for k, v in settings.items() if k not in skip}

    @classmethod
    def modules_by_name(cls, settings: dict[str, Any]) -> tuple[str, ...]:
        """gendermt modules a backend of these settings loads by name (invisible to its
        imports; a translation job's code fingerprint covers them): none by default."""
        return ()

    def served_by(self) -> str | None:
        """Which server answers (part of the cache key of a backend that says what it
        sends, :meth:`wire_request`); None: the backend answers itself."""
        return None

    def legacy_entry_ok(self, digest: str, entry: dict[str, Any],
                        run: dict[str, Any] | None) -> bool:
        """Whether a cache entry found under the legacy key ``digest`` (made by the run
        whose record is ``run``, None when unknown) may be served; by default yes."""
        return True

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
            if "_identity" not in self.__dict__:  # once: it may ask the system (Apertium)
                self._identity = self.identity()
            parts: list[Any] = [self._identity, request.source, request.messages,
                                request.src_lang, request.tgt_lang]
        else:
            # which server answers is part of the key: two servers share answers only when
            # the system says they serve the same model (openai-compatible `cache_identity`)
            server = self.served_by()
            parts = [{"backend": self.name, **({"server": server} if server else {})}, wire]
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
