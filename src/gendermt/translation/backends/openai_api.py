"""Chat completions over HTTP: OpenAI, OpenRouter, Ollama, a vLLM or TGI server.

The API key is read from the environment variable the config names (``api_key_env``) and
is never written to any file or log: it is redacted from every message this backend logs or
raises, even when a server echoes it back. Requests run ``concurrency`` at a time, each
within a wall-clock deadline of ``timeout`` seconds (connecting, sending, headers and body
together: a server trickling bytes cannot hold a job). Every transport failure (refused,
reset or dropped connections, a body cut short, TLS errors, timeouts), 408/429/5xx, garbled
JSON and empty or whitespace-only answers are retried with exponential backoff and jitter,
honouring ``Retry-After`` (seconds or an HTTP date, capped at ``retry_after_max``); after
``max_retries`` the item fails with :class:`ItemFailed`, naming it and the last error.

Per job (one backend object), connections are kept alive and reused by every batch (a
pool of idle ones, at most ``concurrency``; one the server closed meanwhile is noticed
before it is used, and a request that fails on a reused connection before any answer is
sent once more on a new one, not counted as an attempt); the requests run on one executor of
``concurrency`` threads, and every deadline is kept by one watchdog thread. :meth:`close`
(the engine calls it when its run ends) closes them all; a later batch opens them again.
"""

from __future__ import annotations

import contextlib
import hashlib
import http.client
import json
import logging
import os
import queue
import random
import select
import socket
import threading
import time
import urllib.parse
import urllib.request
from collections import OrderedDict
from collections.abc import Callable, Iterator
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING, Any, ClassVar

from gendermt.core.errors import GenderMTError
from gendermt.translation.backends.base import Backend, ItemFailed, Request

if TYPE_CHECKING:  # annotations only: the jobs that read data import pandas
    import pandas as pd

#: This module's backends, as gendermt.core.backends reads them from this file's text
#: (without importing it): name → its class and what is known before a job runs.
ABOUT = {
    "openai-compatible": {
        "class": "OpenAICompatible",
        "style": "llm",
        "workload": "service",
        "cli_setting": "model",
        "example": ("a model behind an OpenAI-compatible server",
                    "gendermt run --model openai-compatible:gpt-4o-mini --option "
                    "base_url=https://api.openai.com/v1 --option api_key_env=OPENAI_API_KEY"),
    },
}

log = logging.getLogger(__name__)


class Retryable(Exception):
    """A failure worth another try (rate limit, server error, timeout, garbled answer)."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class TooLarge(Exception):
    """A body larger than the answer's token budget allows (read no further)."""


#: Bytes an answer's body may take: a fixed allowance plus this much per token of
#: ``max_tokens`` (a token is a few characters; JSON may escape each as 6 bytes); without
#: ``max_tokens``, ``MAX_BODY``.
BODY_ALLOWANCE, BYTES_PER_TOKEN, MAX_BODY = 64 * 1024, 64, 32 * 1024 * 1024


# Every way a transport can fail: OSError covers refused/reset connections, socket timeouts
# and ssl.SSLError; HTTPException covers IncompleteRead, RemoteDisconnected, BadStatusLine.
TRANSPORT_ERRORS = (OSError, http.client.HTTPException)
# How a kept-alive connection the server closed meanwhile fails, before any answer.
STALE_ERRORS = (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError,
                ConnectionAbortedError)
#: Seconds an idle kept-alive connection is kept (servers close theirs after 5 s or more).
KEEP_IDLE = 4.0


class StaleConnection(Exception):
    """A reused connection failed before any answer: the server had closed it."""


class Watchdog:
    """One thread that keeps every deadline of a backend: :meth:`arm` ``(action)`` calls
    ``action`` once ``seconds`` have passed unless :meth:`disarm` came first. Every deadline
    is ``seconds`` long, so they expire in the order armed (a queue), and the thread, idle,
    sleeps ``seconds`` at most: arming never has to wake it (waking it for each request
    cost a thread switch a request)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._cond = threading.Condition()
        self._armed: OrderedDict[int, tuple[float, Callable[[], None]]] = OrderedDict()
        self._count = 0
        self._thread: threading.Thread | None = None
        self._closed = False

    def arm(self, action: Callable[[], None]) -> int:
        with self._cond:
            self._count += 1
            self._armed[self._count] = (time.monotonic() + self.seconds, action)
            if self._thread is None or not self._thread.is_alive():
                self._closed = False
                self._thread = threading.Thread(target=self._watch, daemon=True,
                                                name="gendermt-deadlines")
                self._thread.start()
            return self._count

    def disarm(self, token: int) -> bool:
        """Whether the deadline was still armed (False: its action ran, or is running)."""
        with self._cond:
            return self._armed.pop(token, None) is not None

    def _watch(self) -> None:
        while True:
            with self._cond:
                if self._closed:
                    return
                if not self._armed:
                    # a deadline armed meanwhile ends no sooner than this wait
                    self._cond.wait(self.seconds)
                    continue
                token, (when, action) = next(iter(self._armed.items()))
                left = when - time.monotonic()
                if left > 0:
                    self._cond.wait(left)
                    continue
                del self._armed[token]
            action()

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify()
        if self._thread is not None:
            self._thread.join(5)
        self._thread = None


class Workers:
    """A job's executor: ``size`` threads taking work from one queue, started on first use
    (again in a forked child) and ended by :meth:`close` once the work queued is done."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._queue: queue.SimpleQueue[tuple[Callable[..., None], tuple[Any, ...]] | None] = \
            queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._pid = os.getpid()
        self._lock = threading.Lock()

    def submit(self, fn: Callable[..., None], *args: Any) -> None:
        """Run ``fn(*args)`` on a worker (``fn`` handles its own errors)."""
        if len(self._threads) < self.size or self._pid != os.getpid():
            self._start()
        self._queue.put((fn, args))

    def _start(self) -> None:
        with self._lock:
            if self._pid != os.getpid():  # a forked child has none of the threads
                self._threads, self._queue, self._pid = [], queue.SimpleQueue(), os.getpid()
            while len(self._threads) < self.size:
                thread = threading.Thread(target=self._work, args=(self._queue,), daemon=True,
                                          name=f"gendermt-http-{len(self._threads)}")
                thread.start()
                self._threads.append(thread)

    @staticmethod
    def _work(work: queue.SimpleQueue) -> None:
        while (item := work.get()) is not None:
            fn, args = item
            try:
                fn(*args)
            except BaseException:  # a worker outlives what it runs
                log.exception("a request's worker failed")

    def close(self) -> None:
        """Let the workers finish what is queued, then end them."""
        with self._lock:
            threads, self._threads = self._threads, []
            if self._pid != os.getpid():
                return
            for _ in threads:
                self._queue.put(None)
        for thread in threads:
            thread.join()


def _dropped(sock: socket.socket | None) -> bool:
    """Whether an idle connection's socket was closed by the server (readable with nothing
    asked: the end of the stream, or bytes nobody asked for)."""
    if sock is None:
        return True
    try:
        readable, _, _ = select.select([sock], [], [], 0)
    except (OSError, ValueError):
        return True
    return bool(readable)


def _wait(seconds: float) -> None:
    time.sleep(seconds)


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header: delta-seconds (integer or not) or an
    HTTP date (RFC 9110); None when absent or unparsable."""
    if not value:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        if when is None:
            return None
        seconds = when.timestamp() - (time.time() if now is None else now)
    return max(0.0, seconds) if seconds == seconds else None  # NaN is unparsable


def normalise_url(url: str) -> str:
    """``url`` as one server's identity: scheme and host in lower case, the default port
    left out, no trailing slash (``HTTP://Host:80/v1/`` is ``http://host/v1``)."""
    parts = urllib.parse.urlsplit(url.strip())
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if ":" in host:  # IPv6
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        port = None
    if port is not None and port != {"http": 80, "https": 443}.get(scheme):
        host += f":{port}"
    query = f"?{parts.query}" if parts.query else ""
    return f"{scheme}://{host}{parts.path.rstrip('/')}{query}"


def server_identity(settings: dict[str, Any]) -> str:
    """Which server's answers a system's are: its ``cache_identity`` when it sets one (a name
    or URL several servers share: they serve the same model), else its ``base_url``."""
    declared = settings.get("cache_identity")
    value = str(declared if declared is not None else settings["base_url"])
    return normalise_url(value) if value.lower().startswith(("http://", "https://")) \
        else value


#: The shortest piece of the API key that is redacted wherever it appears.
KEY_FRAGMENT = 8
REDACTED = "[redacted]"


def redact_secret(text: str, secret: str | None, least: int = KEY_FRAGMENT) -> str:
    """``text`` with ``secret`` and every piece of it of ``least`` characters or more
    replaced by ``[redacted]`` (a body cut short, or a server echoing part of the key, must
    not leak the rest)."""
    if not secret:
        return text
    text = text.replace(secret, REDACTED)
    if len(secret) < least:
        return text
    grams = {secret[i:i + least] for i in range(len(secret) - least + 1)}
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        if text[i:i + least] in grams:
            j = i + least
            while j < n and text[i:j + 1] in secret:
                j += 1
            out.append(REDACTED)
            i = j
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


#: Seconds one item may spend on its attempts and the waits between them (``retry_budget``),
#: by default and at most: however many ``max_retries``, an item fails within this.
DEFAULT_RETRY_BUDGET = 900.0
MAX_RETRY_BUDGET = 86400.0


class OpenAICompatible(Backend):
    name: ClassVar[str] = "openai-compatible"
    reads_data: ClassVar[bool] = False
    default_batch_size: ClassVar[int] = 32
    settings_keys: ClassVar[frozenset[str]] = frozenset(
        {"base_url", "model", "api_key_env", "temperature", "max_tokens", "top_p", "seed",
         "concurrency", "timeout", "max_retries", "backoff", "retry_after_max",
         "cache_identity", "retry_budget"})
    required_keys: ClassVar[frozenset[str]] = frozenset({"base_url", "model"})
    # How requests are sent, not what is asked: changing these reuses earlier outputs.
    # `base_url` and `cache_identity` stand in the key and the params as one value, the
    # server's identity (server_identity): another server is another model unless the
    # system declares them the same (`cache_identity`).
    runtime_keys: ClassVar[frozenset[str]] = frozenset(
        {"base_url", "cache_identity", "api_key_env", "concurrency", "timeout", "max_retries",
         "backoff", "retry_after_max", "retry_budget"})

    @classmethod
    def check_settings(cls, settings: dict[str, Any]) -> None:
        super().check_settings(settings)
        from gendermt.config.systems import KEY_NOT_SHOWN, plausible_env_name

        if "api_key_env" in settings and not plausible_env_name(settings["api_key_env"]):
            raise GenderMTError(KEY_NOT_SHOWN)  # before anything that might show settings
        url = str(settings["base_url"])
        if not url.startswith(("http://", "https://")):
            raise GenderMTError(f"backend 'openai-compatible': base_url must start with "
                                f"http:// or https://, not {url!r}")
        for key in ("concurrency", "max_retries"):
            if key in settings and int(settings[key]) < (1 if key == "concurrency" else 0):
                raise GenderMTError(f"backend 'openai-compatible': {key} is too small")
        budget = settings.get("retry_budget")
        if budget is not None and (isinstance(budget, bool) or not isinstance(budget, int | float)
                                   or not 0 < budget <= MAX_RETRY_BUDGET):
            raise GenderMTError(f"backend 'openai-compatible': retry_budget must be a number "
                                f"of seconds above 0 and at most {MAX_RETRY_BUDGET}, not "
                                f"{budget!r}")
        for key, least in (("timeout", 0.0), ("backoff", 0.0), ("retry_after_max", 0.0)):
            value = settings.get(key)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int | float) or \
                    value < least or (key == "timeout" and value == 0):
                raise GenderMTError(f"backend 'openai-compatible': {key} must be a "
                                    f"{'positive' if key == 'timeout' else 'non-negative'} "
                                    f"number of seconds, not {value!r}")

    @classmethod
    def output_settings(cls, settings: dict[str, Any]) -> dict[str, Any]:
        return {**super().output_settings(settings), "server": server_identity(settings)}

    def __init__(self, settings: dict[str, Any], data: pd.DataFrame) -> None:
        super().__init__(settings, data)
        self.server = server_identity(settings)
        self._body_keys: set[str] = set()  # legacy keys of the body alone (no server)
        self.url = str(settings["base_url"]).rstrip("/") + "/chat/completions"
        self._parts = urllib.parse.urlsplit(self.url)
        self.model = str(settings["model"])
        self.concurrency = int(settings.get("concurrency", 4))
        self.timeout = float(settings.get("timeout", 60))
        self.max_retries = int(settings.get("max_retries", 5))
        self.backoff = float(settings.get("backoff", 1.0))
        self.retry_after_max = float(settings.get("retry_after_max", 60.0))
        self.retry_budget = float(settings.get("retry_budget", DEFAULT_RETRY_BUDGET))
        tokens = settings.get("max_tokens")
        self.max_body = (min(MAX_BODY, BODY_ALLOWANCE + BYTES_PER_TOKEN * int(tokens))
                         if tokens else MAX_BODY)
        self._key = None
        env = settings.get("api_key_env")
        if env:
            self._key = os.environ.get(str(env))
            if not self._key:
                raise GenderMTError(f"backend 'openai-compatible' ({self.model}): the "
                                    f"environment variable {env} (api_key_env) is not set; "
                                    f"export it with the API key before running")
        self._tokens = 0
        self._finish: dict[str, str] = {}  # finish_reason by item id (stop, length, ...)
        self._lock = threading.Lock()
        # the job's idle kept-alive connections (with when each went idle), its executor
        # and its deadlines' watchdog: made on first use, closed by close()
        self._idle: list[tuple[http.client.HTTPConnection, str, float]] = []
        self._idle_lock = threading.Lock()
        self._workers = Workers(self.concurrency)
        self._watchdog = Watchdog(self.timeout)

    # -- what is asked ------------------------------------------------------------------
    def payload(self, request: Request) -> dict[str, Any]:
        """The JSON body the server receives for ``request``."""
        body: dict[str, Any] = {
            "model": self.model,
            "messages": request.messages or [{"role": "user", "content": request.source}],
            "temperature": float(self.settings.get("temperature", 0)),
        }
        for key in ("max_tokens", "top_p", "seed"):
            if key in self.settings:
                body[key] = self.settings[key]
        return body

    def identity(self) -> dict[str, Any]:
        return {**super().identity(), "server": self.server}

    def served_by(self) -> str:
        return self.server

    def wire_request(self, request: Request) -> dict[str, Any]:
        # The cache key: the server (served_by), the served model's name and the body as
        # sent, so that editing how the body is built changes the key.
        return self.payload(request)

    def legacy_entry_ok(self, digest: str, entry: dict[str, Any],
                        run: dict[str, Any] | None) -> bool:
        # A key of the body alone (gendermt before the server joined the key) says nothing
        # of which server answered: its answer is served only where the run that made it
        # recorded a server this system's identity names.
        # An entry with no such record (the GAMBIT judge's, the ConGA annotator's) is served
        # only to a system that declares its server's identity (`cache_identity`): the
        # user says these answers are this model's.
        if digest not in self._body_keys:
            return True
        url = ((run or {}).get("resolved") or {}).get("base_url")
        if not url:
            return self.settings.get("cache_identity") is not None
        return normalise_url(str(url)) in {self.server,
                                            normalise_url(str(self.settings["base_url"]))}

    def legacy_digests(self, request: Request) -> list[str]:
        # Keys of the body as sent alone, before the server joined the key: served only as
        # legacy_entry_ok allows (which server answered).
        body = self.payload(request)
        body_only = hashlib.sha256(json.dumps([{"backend": self.name}, body], sort_keys=True,
                                              ensure_ascii=False).encode()).hexdigest()
        self._body_keys.add(body_only)
        # Until gendermt 0.x keys were the settings (with base_url) and the request, not the
        # body as sent. Their answers are still the right ones where the body built then (a
        # frozen copy of that code) is the body built now.
        v1 = {"model": self.model,
              "messages": request.messages or [{"role": "user", "content": request.source}],
              "temperature": float(self.settings.get("temperature", 0)),
              **{k: self.settings[k] for k in ("max_tokens", "top_p", "seed")
                 if k in self.settings}}
        if v1 != body:
            return [body_only]
        old_runtime = {"batch_size", "gpus", "api_key_env", "concurrency", "timeout",
                       "max_retries", "backoff",
                       "cache_identity", "retry_budget"}  # (not settings then)
        identity = {"backend": self.name, **{k: v for k, v in sorted(self.settings.items())
                                             if k not in old_runtime}}
        payload = json.dumps([identity, request.source, request.messages, request.src_lang,
                              request.tgt_lang], sort_keys=True, ensure_ascii=False)
        return [body_only, hashlib.sha256(payload.encode()).hexdigest()]

    def provenance(self) -> dict[str, Any]:
        return {"base_url": str(self.settings["base_url"])}

    # -- how it is sent -----------------------------------------------------------------
    def redact(self, text: str) -> str:
        """``text`` without the API key (servers may echo the Authorization header)."""
        return redact_secret(text, self._key)

    def excerpt(self, payload: bytes, limit: int) -> str:
        """The first ``limit`` characters of a server's body, redacted before the cut (a key
        straddling the cut would otherwise leave its first part in the message)."""
        head = payload[:limit + 4 * (len(self._key or "") + 16)].decode(errors="replace")
        return self.redact(head)[:limit]

    def _connection(self, timeout: float) -> tuple[http.client.HTTPConnection, str]:
        """A connection to the server (or the proxy the environment names, as urllib
        would use) and the request target to send on it."""
        parts = self._parts
        https = parts.scheme == "https"
        cls = http.client.HTTPSConnection if https else http.client.HTTPConnection
        host = parts.hostname or ""
        port = parts.port or (443 if https else 80)
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        proxy = urllib.request.getproxies().get(parts.scheme)
        if proxy and not urllib.request.proxy_bypass(host):
            target = urllib.parse.urlsplit(proxy if "://" in proxy else f"http://{proxy}")
            proxy_host, proxy_port = target.hostname or "", target.port or 8080
            if not https:  # a plain HTTP proxy takes the absolute URL
                return http.client.HTTPConnection(proxy_host, proxy_port,
                                                  timeout=timeout), self.url
            conn = cls(proxy_host, proxy_port, timeout=timeout)
            conn.set_tunnel(host, port)
            return conn, path
        return cls(host, port, timeout=timeout), path

    def _checkout(self) -> tuple[http.client.HTTPConnection, str, bool]:
        """An idle kept-alive connection (the most recent one the server has not closed),
        else a new one: ``(connection, request target, reused)``."""
        now = time.monotonic()
        with self._idle_lock:
            while self._idle:
                conn, path, since = self._idle.pop()
                if now - since < KEEP_IDLE and not _dropped(conn.sock):
                    return conn, path, True
                conn.close()
        return *self._connection(self.timeout), False

    def _checkin(self, conn: http.client.HTTPConnection, path: str) -> None:
        with self._idle_lock:
            if len(self._idle) < self.concurrency:
                self._idle.append((conn, path, time.monotonic()))
                return
        conn.close()

    def close(self) -> None:
        """Close the job's connections, executor and watchdog (made again when needed)."""
        self._workers.close()
        with self._idle_lock:
            idle, self._idle = self._idle, []
        for conn, _, _ in idle:
            conn.close()
        self._watchdog.close()

    def _too_large(self) -> TooLarge:
        return TooLarge(f"an answer body over {self.max_body} bytes (more than max_tokens "
                        f"{self.settings.get('max_tokens', '(unset)')} allows)")

    def _post(self, body: bytes) -> tuple[int, http.client.HTTPMessage, bytes]:
        """One POST within the deadline, on a kept-alive connection where there is one; a
        reused one that fails before any answer (the server closed it as it was taken) is
        replaced by a new one once, not counted as an attempt."""
        try:
            return self._post_on(body, *self._checkout())
        except StaleConnection:
            return self._post_on(body, *self._connection(self.timeout), False)

    def _post_on(self, body: bytes, conn: http.client.HTTPConnection, path: str,
                 reused: bool) -> tuple[int, http.client.HTTPMessage, bytes]:
        """One POST on ``conn`` within the deadline: the watchdog shuts the socket when it
        passes, which ends a read blocked on a server that trickles bytes or never
        answers. A connection left clean (the answer read whole, the server keeping it
        open) goes back to the pool."""
        headers = self._headers()
        expired: list[bool] = []  # [True] once the deadline passed
        opened: list[socket.socket] = [conn.sock] if conn.sock is not None else []
        answered = keep = False

        def abort() -> None:
            expired.append(True)
            # the socket as connected: http.client drops conn.sock once the response is
            # known to close the connection, while the body is still being read from it
            for sock in opened[:1] or [s for s in [conn.sock] if s is not None]:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)

        deadline = self._watchdog.arm(abort)
        try:
            if conn.sock is None:
                conn.connect()
                opened.append(conn.sock)
            if expired:  # the deadline passed while connecting
                abort()
            conn.request("POST", path, body=body, headers=headers)
            resp = conn.getresponse()
            answered = True
            payload = self._read_body(resp, expired)
            keep = resp.isclosed() and not resp.will_close
            return resp.status, resp.headers, payload
        except TRANSPORT_ERRORS as exc:
            raise self._transport_failure(exc, expired, reused, answered) from exc
        finally:
            # still armed: the socket was never shut, and it may serve the next request
            if self._watchdog.disarm(deadline) and keep and not expired:
                self._checkin(conn, path)
            else:
                conn.close()

    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self._key:
            headers["Authorization"] = f"Bearer {self._key}"
        return headers

    def _read_body(self, resp: http.client.HTTPResponse, expired: list[bool]) -> bytes:
        """The answer's body, read no further than the token budget allows (a runaway
        server's 50 MB answer would otherwise be kept, and scored for minutes);
        ``expired``: ``[True]`` once the request's deadline passed."""
        length = resp.getheader("Content-Length") or ""
        if length.isdigit():
            if int(length) > self.max_body:
                raise self._too_large()
            return resp.read()  # a body cut short raises IncompleteRead
        # chunked or until close: at most one byte past the limit
        payload = resp.read(self.max_body + 1)
        if expired:
            raise TimeoutError("the deadline passed while reading the body")
        if len(payload) > self.max_body:
            raise self._too_large()
        return payload

    def _transport_failure(self, exc: BaseException, expired: list[bool], reused: bool,
                           answered: bool) -> Exception:
        """What a transport error of a POST is raised as: a timeout once the deadline passed,
        a stale kept-alive connection when a reused one failed before any answer (replaced
        without counting an attempt), else a failed connection."""
        if expired or isinstance(exc, TimeoutError | socket.timeout):
            return Retryable(f"no answer within {self.timeout:g} s (a deadline for the "
                             f"whole request; {type(exc).__name__})")
        if reused and not answered and isinstance(exc, STALE_ERRORS):
            return StaleConnection()
        return Retryable(f"connection failed: {type(exc).__name__}: "
                         f"{self.redact(str(exc)) or 'no detail'}")

    def _once(self, request: Request) -> str:
        body = json.dumps(self.payload(request), ensure_ascii=False).encode()
        try:
            status, headers, payload = self._post(body)
        except TooLarge as exc:
            raise ItemFailed(request.item_id, f"openai-compatible {self.model} at {self.url}: "
                             f"item {request.item_id}: {exc}; not kept") from None
        if status != 200:
            detail = self.excerpt(payload, 300)
            if status in (408, 409, 425, 429) or status >= 500:
                after = parse_retry_after(headers.get("Retry-After"))
                raise Retryable(f"HTTP {status}: {detail}", after)
            raise ItemFailed(request.item_id, f"openai-compatible {self.model} at {self.url}: "
                             f"HTTP {status} for item {request.item_id}: {detail}")
        try:
            answer = json.loads(payload)
            text = answer["choices"][0]["message"]["content"]
            if not isinstance(text, str):
                raise TypeError(f"content is {type(text).__name__}, not a string")
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise Retryable(self.redact(f"malformed answer ({exc}): "
                                        f"{self.excerpt(payload, 200)!r}")) from exc
        if not text.strip():
            # never an answer: retried, and never cached
            raise Retryable(f"empty answer ({text!r})")
        # a key echoed in an answer must reach neither the outputs nor the cache
        text = self.redact(text)
        tokens = (answer.get("usage") or {}).get("completion_tokens")
        with self._lock:
            self._tokens += int(tokens) if isinstance(tokens, int) else len(text.split())
            self._finish[request.item_id] = str(answer["choices"][0].get("finish_reason")
                                                or "n/a")
        return text

    def _with_retries(self, request: Request) -> str:
        started = time.monotonic()
        for attempt in range(self.max_retries + 1):
            try:
                return self._once(request)
            except Retryable as exc:
                # Exponential backoff with full jitter, unless the server says how long
                # (capped: a server asking for an hour must not hold the job for one).
                delay = random.uniform(0, self.backoff * 2 ** min(attempt, 60))
                if exc.retry_after is not None:
                    delay = min(exc.retry_after, self.retry_after_max)
                spent = time.monotonic() - started
                # the next attempt could not end within the item's retry budget
                over = attempt < self.max_retries and \
                    spent + delay + self.timeout > self.retry_budget
                if attempt == self.max_retries or over:
                    why = (f" (its retry_budget of {self.retry_budget:g} s left no time for "
                           f"another; {spent:.1f} s spent)" if over else "")
                    raise ItemFailed(
                        request.item_id,
                        f"openai-compatible {self.model} at {self.url}: item "
                        f"{request.item_id} failed after {attempt + 1} attempts{why}; last "
                        f"error: {self.redact(str(exc))}") from None
                log.warning("%s: item %s, attempt %d failed (%s); retrying in %.2f s",
                            self.model, request.item_id, attempt + 1, self.redact(str(exc)),
                            delay)
                _wait(delay)
        raise AssertionError("unreachable")

    def _start(self, batch: list[Request], take: Callable[[int, Any], None],
               stop: threading.Event, done: Callable[[], None] | None = None) -> None:
        """Send each request of ``batch`` on the job's workers, each answer (or the error
        it ended in) to ``take(index, answer)`` in the worker; ``done()`` after each. Once
        ``stop`` is set, what is not sent yet is not sent."""
        def one(i: int, request: Request) -> None:
            try:
                if stop.is_set():
                    return
                try:
                    out: Any = self._with_retries(request)
                except Exception as exc:  # the engine names the item
                    out = exc
                take(i, out)
            finally:
                if done is not None:
                    done()

        # each worker takes the batch's next request until none is left (a submission a
        # worker, not one a request)
        pending = iter(list(enumerate(batch)))
        taking = threading.Lock()

        def drain() -> None:
            while True:
                with taking:
                    item = next(pending, None)
                if item is None:
                    return
                one(*item)

        self._tokens = 0
        for _ in range(min(self.concurrency, len(batch))):
            self._workers.submit(drain)

    def translate_each(self, batch: list[Request]) -> Iterator[tuple[int, str | Exception]]:
        answers: queue.SimpleQueue[tuple[int, Any]] = queue.SimpleQueue()
        stop = threading.Event()
        self._start(batch, lambda i, out: answers.put((i, out)), stop)
        try:
            for _ in batch:
                yield answers.get()
        finally:  # a batch given up (its caller failed): nothing more of it is sent
            stop.set()

    def translate(self, batch: list[Request]) -> list[str]:
        results: list[Any] = [None] * len(batch)
        for i, out in self.translate_each(batch):
            results[i] = out
        for out in results:
            if isinstance(out, Exception):
                raise out
        self.finish_reasons = [self.finish_reason_of(i, r) for i, r in enumerate(batch)]
        return results

    def finish_reason_of(self, index: int, request: Request) -> str:
        # the server's own words (stop, length, content_filter, ...), as each answer arrived
        with self._lock:
            return self._finish.pop(request.item_id, "n/a")

    def count_tokens(self, texts: list[str]) -> int:
        # The server's own count (usage.completion_tokens) of the last batch.
        return self._tokens
