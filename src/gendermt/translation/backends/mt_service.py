"""The shared base of commercial machine-translation services (DeepL, Google Cloud Translation,
Microsoft Translator, Amazon Translate): what every such backend does the same way.

Interface (for backends built on it; see ``deepl_api.py`` and ``google_translate.py``)
------------------------------------------------------------------------------------
A service backend subclasses :class:`MTService`, sets the class data below and implements
one method, :meth:`MTService.send_chunk` (one HTTP request of at most ``limits``):

``name``                    the ``backend:`` name in config (``deepl``)
``service``                 the vendor's name for messages (``DeepL``)
``api_version``             part of every request-cache key (``v2``)
``default_endpoint``        the vendor's URL; a system's ``endpoint`` replaces it (a stand-in,
                            a regional or private endpoint)
``limits``                  :class:`Limits`: texts, code points and bytes per request
``list_price``              USD per million characters (``price_per_million_chars``' default)
``target_codes``/``source_codes``  project language (ISO 639-1, ``fr``) → the vendor's code;
                            a system's ``lang_codes`` (``{pt: PT-BR}``) overrides the target's
``option_keys``             the vendor's settings that change outputs (``formality``): they are
                            in every request's cache key
``extra_keys``              other settings the backend reads that do not change outputs
``key_envs(settings)``      (classmethod) the environment variables holding credentials;
                            ``missing_credentials(settings)`` names those unset (start-up)
``quota_advice(settings)``  (classmethod) what to change when the quota is spent (one line)
``extra_runtime_keys``      of ``extra_keys``, those that change no output (``token_env``)
``client_modules``/``extra``  the vendor's client modules and the project extra installing
                            them: one missing stops the run at start-up (``missing_packages``)
``required_keys``           (Backend's) settings a system must have (``api_key_env``)

Helpers for ``send_chunk``: ``self.secret(env)`` (a credential from the environment, redacted
from every message from then on), ``self.redact(text)``, ``self.who()`` (the service, backend
and endpoint, for messages), ``self.quota_error(detail)``, :class:`RateLimited` (a 429 or the
vendor's throttling: retried, and named as rate limiting if retries run out),
:func:`parse_retry_after`. ``self.limits`` may be set per instance (Google's v2/v3), as may
``self.api_version``. ``Backend.missing_credentials`` and ``Backend.before_sending`` are the
two hooks this base added to every backend (default: nothing).
``send_chunk(texts, source, target) -> list[str]``  one request; raise :class:`Retryable`
                            (429/5xx/transport/malformed; ``retry_after`` from Retry-After),
                            :class:`QuotaExceeded` (via :meth:`quota_error`) or
                            :class:`ServiceError` (anything else that will not get better)

What the base does:

* **target language per request** (``Request.tgt_lang``: one system covers every language of a
  study), mapped to the vendor's code; a language the vendor lacks stops the job before any
  request (:meth:`MTService.check_languages`), and ``lang_codes`` values are checked at start-up;
* **batching** within the service's documented limits (:func:`chunks`): each engine batch is
  split by language pair, then into requests of at most ``limits.texts`` texts,
  ``limits.chars`` code points and ``limits.bytes`` bytes (UTF-8, with ``limits.overhead``
  bytes a text for its JSON); each request's answers are handed to the engine as they arrive
  (a kill loses at most the request in flight);
* **retries** of 429/5xx, dropped connections and malformed answers, honouring ``Retry-After``
  (capped at ``retry_after_max``), at most ``max_retries`` and within ``retry_budget`` seconds a
  request; then the job stops with ONE line naming the service, what it answered and what to
  do (:class:`ServiceError`); answers received are in the partial file and the request cache,
  so a rerun sends only what was not answered;
* **quota errors** (DeepL 456, Azure 403000 family, Google 403 quota, AWS throttling or limit
  errors) stop the job at once with one line naming the key or setting to change
  (:class:`QuotaExceeded`);
* **keys** come from the environment (``api_key_env``, or the vendor's credential chain) and
  are read when the first request is sent; every message is redacted of them; they are in no
  cache key, output setting, provenance or log line;
* **cache keys** (:meth:`MTService.wire_request`): service, endpoint (normalised), API version,
  the output-changing options, source and target codes and the text; never the key;
* **paid work**: :meth:`MTService.before_sending` (called by the translation runner before the
  first request) states the characters the job will send (those the request cache and the
  partial file hold are not sent, so not counted) and their cost at ``price_per_million_chars``
  (default: the vendor's list price), and stops if they exceed ``max_characters``;
  :func:`startup_statement` does the same at workflow start-up for every planned job whose
  inputs are built.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import random
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from gendermt.core.errors import GenderMTError
from gendermt.translation.backends.base import Backend, ItemFailed, Request
from gendermt.translation.backends.openai_api import (
    Retryable,
    normalise_url,
    parse_retry_after,
    redact_secret,
)

if TYPE_CHECKING:
    import pandas as pd

log = logging.getLogger(__name__)

__all__ = ["Limits", "MTService", "QuotaExceeded", "RateLimited", "Retryable", "ServiceError",
           "chunks", "parse_retry_after", "startup_statement", "SERVICE_KEYS"]


class ServiceError(GenderMTError):
    """The service cannot answer now (retries spent, an authorisation or request error): one
    line, naming the service and what to do; the job stops, keeping what was answered."""


class QuotaExceeded(ServiceError):
    """The account's quota or limit is spent: which key or setting to change."""


class RateLimited(Retryable):
    """HTTP 429 (or the vendor's throttling error): retried; if retries run out, the one line
    says the service is rate-limiting the key."""


@dataclass(frozen=True)
class Limits:
    """A service's documented limits of one request."""

    texts: int                 # texts per request
    chars: int | None = None   # code points of the texts per request
    bytes: int | None = None   # bytes of the request body (UTF-8 texts + ``overhead`` each)
    overhead: int = 16         # bytes a text adds to the body besides its own (JSON quoting)


def _size(text: str, limits: Limits) -> tuple[int, int]:
    return len(text), len(text.encode()) + limits.overhead


def chunks(texts: list[str], limits: Limits) -> list[list[int]]:
    """Indices of ``texts`` in requests within ``limits``, in order; a text that alone
    exceeds a limit is a request of its own (the caller refuses it, :meth:`MTService.oversize`)."""
    out: list[list[int]] = []
    cur: list[int] = []
    chars = size = 0
    for i, text in enumerate(texts):
        c, b = _size(text, limits)
        over = (len(cur) >= limits.texts
                or (limits.chars is not None and chars + c > limits.chars)
                or (limits.bytes is not None and size + b > limits.bytes))
        if cur and over:
            out.append(cur)
            cur, chars, size = [], 0, 0
        cur.append(i)
        chars += c
        size += b
    if cur:
        out.append(cur)
    return out


#: Settings every service backend reads (besides the common ``backend``, ``batch_size``...).
SERVICE_KEYS = frozenset({"endpoint", "api_key_env", "lang_codes", "price_per_million_chars",
                          "max_characters", "timeout", "max_retries", "backoff",
                          "retry_after_max", "retry_budget", "concurrency"})
#: Of those, the ones that change no output (left out of job params and cache keys).
SERVICE_RUNTIME_KEYS = frozenset({"api_key_env", "price_per_million_chars", "max_characters",
                                  "timeout", "max_retries", "backoff", "retry_after_max",
                                  "retry_budget", "concurrency"})
#: Defaults of the retry settings: a 429 storm ends a job within ``retry_budget`` seconds.
DEFAULT_TIMEOUT, DEFAULT_MAX_RETRIES, DEFAULT_BACKOFF = 60.0, 6, 1.0
DEFAULT_RETRY_AFTER_MAX, DEFAULT_RETRY_BUDGET = 60.0, 600.0


class _Stopped(ServiceError):
    """A request not sent because another request of its batch failed for good."""


def _wait(seconds: float) -> None:
    time.sleep(seconds)


def _number(cls_name: str, key: str, value: Any, least: float, strict: bool = False) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or value < least or \
            (strict and value == least):
        raise GenderMTError(f"backend {cls_name!r}: {key} must be a number "
                            f"{'above' if strict else 'at least'} {least:g}, not {value!r}")


def importable(module: str) -> bool:
    """Whether ``module`` can be imported here (found, not imported: a package's parent
    that is missing counts as missing)."""
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


class MTService(Backend):
    """A commercial MT service (see the module's docstring for the interface)."""

    service: ClassVar[str] = ""
    api_version: ClassVar[str] = ""
    default_endpoint: ClassVar[str] = ""
    limits: ClassVar[Limits] = Limits(texts=50)
    list_price: ClassVar[float] = 0.0
    target_codes: ClassVar[dict[str, str]] = {}
    source_codes: ClassVar[dict[str, str]] = {}
    option_keys: ClassVar[frozenset[str]] = frozenset()
    extra_keys: ClassVar[frozenset[str]] = frozenset()
    extra_runtime_keys: ClassVar[frozenset[str]] = frozenset()
    client_modules: ClassVar[tuple[str, ...]] = ()
    extra: ClassVar[str] = ""

    prompted: ClassVar[bool] = False      # reads the plain source only
    reads_data: ClassVar[bool] = False
    default_batch_size: ClassVar[int] = 200  # engine batch: several requests, one cache commit

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.settings_keys = SERVICE_KEYS | cls.option_keys | cls.extra_keys
        cls.runtime_keys = SERVICE_RUNTIME_KEYS | cls.extra_runtime_keys

    # -- settings ---------------------------------------------------------------------
    @classmethod
    def check_settings(cls, settings: dict[str, Any]) -> None:
        from gendermt.config.systems import KEY_NOT_SHOWN, plausible_env_name

        for key in [k for k in settings if k.endswith("_env")]:
            if not plausible_env_name(settings[key]):
                raise GenderMTError(KEY_NOT_SHOWN.replace("api_key_env", key))
        super().check_settings(settings)
        url = str(settings.get("endpoint", cls.default_endpoint))
        if not url.startswith(("http://", "https://")):
            raise GenderMTError(f"backend {cls.name!r}: endpoint must start with http:// or "
                                f"https://, not {url!r}")
        codes = settings.get("lang_codes", {})
        if not isinstance(codes, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                  and v for k, v in codes.items()):
            raise GenderMTError(f"backend {cls.name!r}: lang_codes must map language codes "
                                f"to the service's codes ({{pt: PT-BR}}), not {codes!r}")
        for key, least, strict in (("price_per_million_chars", 0, False), ("timeout", 0, True),
                                   ("backoff", 0, False), ("retry_after_max", 0, False),
                                   ("retry_budget", 0, True)):
            if key in settings:
                _number(cls.name, key, settings[key], least, strict)
        for key in ("max_characters", "max_retries", "concurrency"):
            value = settings.get(key)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or value < (1 if key == "concurrency" else 0)):
                least = 1 if key == "concurrency" else 0
                raise GenderMTError(f"backend {cls.name!r}: {key} must be a whole number "
                                    f"at least {least}, not {value!r}")

    @classmethod
    def key_envs(cls, settings: dict[str, Any]) -> list[str]:
        """The environment variables this system's credentials are read from."""
        return [str(settings["api_key_env"])] if settings.get("api_key_env") else []

    @classmethod
    def missing_credentials(cls, settings: dict[str, Any]) -> list[str]:
        """What start-up reports missing: by default the ``key_envs`` that are unset (an
        ``api_key_env`` unset is already reported by ``unset_api_keys``)."""
        return [f"the environment variable {env} is not set; export it with the "
                f"{cls.service} credentials before running"
                for env in cls.key_envs(settings)
                if env != settings.get("api_key_env") and not os.environ.get(env)]

    @classmethod
    def missing_packages(cls) -> list[str]:
        """One line naming the vendor's client modules not installed and the extra that
        installs them; [] when all are there (gendermt.workflow.startup asks it)."""
        missing = [m for m in cls.client_modules if not importable(m)]
        if not missing:
            return []
        return [f"backend {cls.name!r} needs {cls.service}'s client ({', '.join(missing)} not "
                f"installed): pip install 'gendermt[{cls.extra}]'"]

    @classmethod
    def quota_advice(cls, settings: dict[str, Any]) -> str:
        """What to change when the quota is spent (the key's account, a setting)."""
        envs = " or ".join(cls.key_envs(settings)) or "the credentials"
        return (f"raise the account's quota, or set {envs} to a key with quota left, then "
                f"rerun (answers received are kept)")

    @classmethod
    def price(cls, settings: dict[str, Any]) -> float:
        return float(settings.get("price_per_million_chars", cls.list_price))

    @classmethod
    def endpoint_of(cls, settings: dict[str, Any]) -> str:
        return str(settings.get("endpoint", cls.default_endpoint)).rstrip("/")

    # -- a job's backend --------------------------------------------------------------
    def __init__(self, settings: dict[str, Any], data: pd.DataFrame | None) -> None:
        super().__init__(settings, data)
        self.endpoint = self.endpoint_of(settings)
        self.timeout = float(settings.get("timeout", DEFAULT_TIMEOUT))
        self.max_retries = int(settings.get("max_retries", DEFAULT_MAX_RETRIES))
        self.backoff = float(settings.get("backoff", DEFAULT_BACKOFF))
        self.retry_after_max = float(settings.get("retry_after_max", DEFAULT_RETRY_AFTER_MAX))
        self.retry_budget = float(settings.get("retry_budget", DEFAULT_RETRY_BUDGET))
        self.lang_codes: dict[str, str] = dict(settings.get("lang_codes", {}))
        self.concurrency = int(settings.get("concurrency", 1))
        self._count_lock = threading.Lock()
        # set once a concurrent request fails for good: the others stop before their next
        # attempt instead of retrying (and paying) for a batch already given up
        self._stop = threading.Event()
        self._secrets: list[str] = []
        #: requests sent (HTTP calls, retries included) and characters sent, this job
        self.calls = 0
        self.characters_sent = 0

    def secret(self, env: str) -> str:
        """The value of the environment variable ``env`` (a credential), remembered so that
        every message is redacted of it; a clear error when it is unset."""
        value = os.environ.get(env, "")
        if not value:
            raise ServiceError(f"{self.who()}: the environment variable {env} is not set; "
                               f"export it with the {self.service} credentials")
        if value not in self._secrets:
            self._secrets.append(value)
        return value

    def redact(self, text: str) -> str:
        for s in self._secrets:
            text = redact_secret(text, s)
        return text

    def who(self) -> str:
        return f"{self.service} ({self.name} at {self.endpoint})"

    def options(self) -> dict[str, Any]:
        """The output-changing options set (in every cache key)."""
        return {k: self.settings[k] for k in sorted(self.option_keys) if k in self.settings}

    def target_code(self, lang: str) -> str:
        if lang in self.lang_codes:
            return self.lang_codes[lang]
        if lang in self.target_codes:
            return self.target_codes[lang]
        raise GenderMTError(
            f"{self.who()}: no target language code for {lang!r} (it knows "
            f"{', '.join(sorted(self.target_codes))}); map it in the system's lang_codes "
            f"({{{lang}: <the service's code>}}) if the service has it")

    def source_code(self, lang: str) -> str:
        if not lang:
            return ""  # the service detects it
        return self.source_codes.get(lang, lang)

    def check_languages(self, requests: Iterable[Request]) -> None:
        """Every request's target language has a code: checked before any request."""
        for lang in sorted({r.tgt_lang for r in requests}):
            if not lang:
                raise GenderMTError(f"{self.who()}: a request without a target language "
                                    f"(tgt_lang): the benchmark's data must say it")
            self.target_code(lang)

    # -- the request cache ------------------------------------------------------------
    def wire_request(self, request: Request) -> Any:
        return {"service": self.name, "endpoint": normalise_url(self.endpoint),
                "api_version": self.api_version, "options": self.options(),
                "source_lang": self.source_code(request.src_lang),
                "target_lang": self.target_code(request.tgt_lang), "text": request.source}

    def provenance(self) -> dict[str, Any]:
        return {"service": self.service, "endpoint": self.endpoint,
                "api_version": self.api_version}

    # -- paid work --------------------------------------------------------------------
    def statement(self, characters: int, requests: int) -> str:
        price = self.price(self.settings)
        return (f"{self.who()}: {characters:,} characters to send ({requests:,} texts not in "
                f"the request cache), {characters * price / 1e6:,.2f} USD at {price:g} USD "
                f"per million characters (price_per_million_chars)")

    def before_sending(self, requests: list[Request]) -> None:
        """The job's statement of what it will send and cost; stops (sending nothing) when
        ``max_characters`` would be exceeded or a language has no code."""
        self.check_languages(requests)
        characters = sum(len(r.source) for r in requests)
        line = self.statement(characters, len(requests))
        log.info("%s", line)
        print(f"gendermt: {line}", file=sys.stderr)
        budget = self.settings.get("max_characters")
        if budget is not None and characters > int(budget):
            raise GenderMTError(
                f"{self.who()}: {characters:,} characters to send exceed max_characters "
                f"{int(budget):,} of system {getattr(self, 'system_name', self.name)}; nothing "
                f"was sent: raise max_characters (or remove it) to send them")

    # -- sending ----------------------------------------------------------------------
    def send_chunk(self, texts: list[str], source: str, target: str) -> list[str]:
        """One request: the translations of ``texts`` (vendor codes ``source``, empty:
        detect, and ``target``), in order."""
        raise NotImplementedError

    def quota_error(self, detail: str) -> QuotaExceeded:
        """The one-line error of a spent quota (``detail``: what the service said)."""
        return QuotaExceeded(f"{self.who()}: quota exceeded ({self.redact(detail)}): "
                             f"{self.quota_advice(self.settings)}")

    def oversize(self, text: str) -> bool:
        lim = self.limits
        c, b = _size(text, lim)
        return (lim.chars is not None and c > lim.chars) or \
            (lim.bytes is not None and b > lim.bytes)

    def with_retries(self, call: Callable[[], list[str]], what: str) -> list[str]:
        """``call()`` until it answers: :class:`Retryable` failures are retried (Retry-After
        honoured, capped at ``retry_after_max``; else exponential backoff with jitter) at most
        ``max_retries`` times and within ``retry_budget`` seconds; then one
        :class:`ServiceError` line."""
        started, waited = time.monotonic(), 0.0
        for attempt in range(self.max_retries + 1):
            if self._stop.is_set():
                raise _Stopped(f"{self.who()}: {what} not sent: another request of the batch "
                               f"failed")
            try:
                with self._count_lock:
                    self.calls += 1
                return call()
            except Retryable as exc:
                delay = random.uniform(0, self.backoff * 2 ** min(attempt, 30))
                if exc.retry_after is not None:
                    delay = min(exc.retry_after, self.retry_after_max)
                # (the waits are counted even where a test does not sleep them)
                spent = max(time.monotonic() - started, waited)
                over = spent + delay + self.timeout > self.retry_budget
                if attempt == self.max_retries or over:
                    why = (f"its retry_budget of {self.retry_budget:g} s left no time for "
                           f"another" if over and attempt < self.max_retries
                           else f"max_retries {self.max_retries}")
                    rate = isinstance(exc, RateLimited)
                    advice = ("the service is rate-limiting this key: rerun later (answers "
                              "received are kept and not paid again), or raise max_retries "
                              "/ retry_budget" if rate else
                              "check the endpoint and the service's status, then rerun "
                              "(answers received are kept and not paid again)")
                    raise ServiceError(
                        f"{self.who()}: gave up on {what} after {attempt + 1} attempts in "
                        f"{spent:.1f} s ({why}); last error: {self.redact(str(exc))}; "
                        f"{advice}") from None
                log.warning("%s: %s, attempt %d failed (%s); retrying in %.2f s", self.who(),
                            what, attempt + 1, self.redact(str(exc)), delay)
                waited += delay
                _wait(delay)
        raise AssertionError("unreachable")

    def requests_of(self, batch: list[Request]
                    ) -> tuple[list[tuple[str, str, list[int]]], list[int]]:
        """The service requests of ``batch``: ``(source code, target code, positions in
        batch)`` each, by language pair, within ``limits``; and the positions of texts too
        long for any request."""
        self.check_languages(batch)
        groups: dict[tuple[str, str], list[int]] = {}
        for i, r in enumerate(batch):
            groups.setdefault((self.source_code(r.src_lang), self.target_code(r.tgt_lang)),
                              []).append(i)
        out: list[tuple[str, str, list[int]]] = []
        oversize: list[int] = []
        for (source, target), members in groups.items():
            fit = [i for i in members if not self.oversize(batch[i].source)]
            oversize += [i for i in members if i not in set(fit)]
            texts = [batch[i].source for i in fit]
            out += [(source, target, [fit[j] for j in part])
                    for part in chunks(texts, self.limits)]
        return out, oversize

    def _send(self, batch: list[Request], source: str, target: str, where: list[int]
              ) -> list[str]:
        sent = [batch[i].source for i in where]
        what = f"a request of {len(sent)} texts ({source or 'auto'}→{target})"
        try:
            outs = self.with_retries(lambda: self._checked(sent, source, target), what)
        except BaseException:
            # the worker says so itself, before it can take another request of the batch
            self._stop.set()
            raise
        with self._count_lock:
            self.characters_sent += sum(map(len, sent))
        return [self.redact(o) for o in outs]

    def translate_each(self, batch: list[Request]) -> Iterator[tuple[int, str | Exception]]:
        """Each answer as its request returns: the batch is split by language pair, then
        into requests within ``limits``, sent ``concurrency`` at a time (once one fails for
        good, no further one is sent; the answers received are given first)."""
        self._stop.clear()
        work, oversize = self.requests_of(batch)
        for i in oversize:
            yield i, ItemFailed(batch[i].item_id, (
                f"{self.who()}: item {batch[i].item_id} is longer than one request may be "
                f"({self.limits}); not sent"))
        if self.concurrency == 1 or len(work) < 2:
            for source, target, where in work:
                yield from zip(where, self._send(batch, source, target, where), strict=True)
            return
        yield from self._send_concurrently(batch, work)

    def _send_concurrently(self, batch: list[Request], work: list[tuple[str, str, list[int]]]
                           ) -> Iterator[tuple[int, str]]:
        from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

        failed: BaseException | None = None
        with ThreadPoolExecutor(self.concurrency) as pool:
            pending = {pool.submit(self._send, batch, s, t, w): w for s, t, w in work}
            try:
                while pending:
                    done, _ = wait(pending, return_when=FIRST_COMPLETED)
                    for future in done:
                        where = pending.pop(future)
                        try:
                            outs = future.result()
                        except Exception as exc:  # the first failure ends the sending
                            # the failure that stopped the others, not their stopping
                            if failed is None or isinstance(failed, _Stopped):
                                failed = exc
                            self._stop.set()
                            for other in pending:
                                other.cancel()
                            continue
                        yield from zip(where, outs, strict=True)
                    pending = {f: w for f, w in pending.items() if not f.cancelled()}
            finally:  # a batch given up (the caller failed): nothing more is sent
                self._stop.set()
                for future in pending:
                    future.cancel()
        if failed is not None:
            raise failed

    def _checked(self, texts: list[str], source: str, target: str) -> list[str]:
        outs = self.send_chunk(texts, source, target)
        if not isinstance(outs, list) or len(outs) != len(texts) or \
                not all(isinstance(o, str) for o in outs):
            got = len(outs) if isinstance(outs, list) else type(outs).__name__
            raise Retryable(f"malformed answer: {got} translations for {len(texts)} texts")
        return outs

    def translate(self, batch: list[Request]) -> list[str]:
        results: list[Any] = [None] * len(batch)
        for i, out in self.translate_each(batch):
            if isinstance(out, Exception):
                raise out
            results[i] = out
        return results


# -- start-up ------------------------------------------------------------------------
def is_service(settings: dict[str, Any]) -> bool:
    from gendermt.translation.backends import BACKENDS

    cls = BACKENDS.get(settings.get("backend", ""))
    return isinstance(cls, type) and issubclass(cls, MTService)


def _counter(settings: dict[str, Any]) -> MTService:
    """A backend of ``settings`` that only computes request-cache keys (no key, no network)."""
    from gendermt.translation.backends import BACKENDS

    cls = BACKENDS[settings["backend"]]
    return cls(cls.resolve_settings(settings, {}), None)


def estimated_digests(settings: dict[str, Any], texts: Iterable[tuple[str, str, str]]
                      ) -> dict[str, int]:
    """Characters of each distinct request (by cache key) of ``(source, source language,
    target language)`` texts."""
    backend = _counter(settings)
    return {backend.request_digest(Request("", text, [], src, tgt)): len(text)
            for text, src, tgt in texts}


def _digests(settings: dict[str, Any], inputs: str | Path) -> dict[str, int]:
    """Characters of each distinct request (by cache key) of a translation job's inputs."""
    def texts() -> Iterator[tuple[str, str, str]]:
        with open(inputs, encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    r = json.loads(line)
                    yield r["source"], r.get("src_lang", ""), r.get("tgt_lang", "")

    return estimated_digests(settings, texts())


def _uncached(digests: dict[str, int], cache_dir: str | Path | None) -> int:
    from gendermt.translation.cache import RequestCache

    found: set[str] = set()
    if cache_dir is not None and digests:
        try:
            found = set(RequestCache(cache_dir).entries(digests))
        except Exception as exc:  # noqa: BLE001 (an unreadable cache: count everything)
            log.warning("the request cache cannot be read (%s): counting every request", exc)
    return sum(n for d, n in digests.items() if d not in found)


def job_characters(settings: dict[str, Any], inputs: str | Path,
                   cache_dir: str | Path | None) -> int:
    """Characters a translation job of a service system would send: its inputs' distinct
    requests less those the request cache answers (no network, no key)."""
    return _uncached(_digests(settings, inputs), cache_dir)


def startup_statement(systems: dict[str, dict[str, Any]],
                      jobs: list[tuple[Any, ...]],
                      cache_dir: str | Path | None) -> tuple[list[str], list[str]]:
    """``(lines to print, errors)`` for the translation ``jobs`` (``(system, inputs path,
    settings)``, optionally with a fourth item: the job's requests estimated from the data,
    ``[(source, source language, target language), ...]``, or None) of service systems: per
    system, the characters of the distinct requests of the jobs whose inputs are built, and
    of the estimated requests of those whose inputs are not, less what the request cache
    answers, and their cost; an error for a system whose counted characters (built inputs
    only: an estimate stops nothing) exceed its ``max_characters``. A request whose target
    language the service has no code for raises GenderMTError (a start-up error)."""

    counted: dict[str, dict[str, int]] = {}
    estimated: dict[str, dict[tuple[str, str, str], int]] = {}
    later: dict[str, int] = {}
    for system, inputs, settings, *more in jobs:
        if not is_service(settings):
            continue
        counted.setdefault(system, {})
        estimated.setdefault(system, {})
        later.setdefault(system, 0)
        if Path(inputs).is_file():  # a language without a code raises (GenderMTError)
            counted[system].update(_digests(settings, inputs))
        elif more and more[0] is not None:
            # distinct (text, languages), not cache keys: an estimate, cheap at start-up (the
            # paid_work job subtracts the cache); a language without a code raises here too
            found = {(t, s, g): len(t) for t, s, g in more[0]}
            backend = _counter(settings)
            for lang in {g for _, _, g in found}:
                backend.target_code(lang)
            estimated[system].update(found)
        else:
            later[system] += 1
    lines, errors = [], []
    for system in sorted(counted):
        lines.append(_system_line(system, systems[system], counted[system],
                                  estimated[system], later[system], cache_dir, errors))
    return lines, errors


def _system_line(system: str, settings: dict[str, Any], counted: dict[str, int],
                 estimated: dict[tuple[str, str, str], int], later: int,
                 cache_dir: str | Path | None, errors: list[str]) -> str:
    from gendermt.translation.backends import BACKENDS

    cls = BACKENDS[settings["backend"]]
    price = cls.price(settings)
    exact = _uncached(counted, cache_dir)
    budget = settings.get("max_characters")
    head = f"{system} ({cls.service}): "
    if not counted and not estimated:
        return (head + f"not counted yet ({later} job(s) whose inputs are not built, no "
                f"estimate from the data): the paid_work job counts them, less the request "
                f"cache, and checks max_characters before the first request")
    if estimated:
        chars = exact + sum(estimated.values())
        texts = len(counted) + len(estimated)
        line = (head + f"about {chars:,} characters ({texts:,} distinct texts; estimated "
                f"from the data: inputs not built yet; the paid_work job counts them exactly, "
                f"less the request cache, before the first request), "
                f"{chars * price / 1e6:,.2f} USD at {price:g} USD per million characters")
    else:
        chars = exact
        line = (head + f"{chars:,} characters to send ({len(counted):,} distinct requests "
                f"whose inputs are built, less the request cache's answers), "
                f"{chars * price / 1e6:,.2f} USD at {price:g} USD per million characters")
    if later:
        line += (f"; {later} job(s) not counted yet (inputs not built, no estimate from the "
                 f"data): the paid_work job counts them before the first request")
    if budget is not None and chars > int(budget):
        line += f"; over max_characters {int(budget):,}: a run stops before sending"
    if budget is not None and exact > int(budget):
        errors.append(f"systems.{system}: {exact:,} characters to send exceed "
                      f"max_characters {int(budget):,}; nothing was sent: raise it (or "
                      f"remove it) to send them")
    return line
