"""Chat completions over HTTP: OpenAI, OpenRouter, Ollama, a vLLM or TGI server.

The API key is read from the environment variable the config names (``api_key_env``) and
is never written to any file or log. Requests run ``concurrency`` at a time; 429, 5xx,
timeouts, dropped connections and malformed answers are retried with exponential backoff
and jitter (honouring ``Retry-After``), and the job fails with a clear message after the
last retry.
"""

from __future__ import annotations

import json
import logging
import os
import random
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ClassVar

import pandas as pd

from gendermt.errors import GenderMTError

from .base import Backend, Request

log = logging.getLogger(__name__)


class Retryable(Exception):
    """A failure worth another try (rate limit, server error, timeout, garbled answer)."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class OpenAICompatible(Backend):
    name: ClassVar[str] = "openai-compatible"
    default_batch_size: ClassVar[int] = 32
    settings_keys: ClassVar[frozenset[str]] = frozenset(
        {"base_url", "model", "api_key_env", "temperature", "max_tokens", "top_p", "seed",
         "concurrency", "timeout", "max_retries", "backoff"})
    required_keys: ClassVar[frozenset[str]] = frozenset({"base_url", "model"})
    # How requests are sent, not what is asked: changing these reuses earlier outputs.
    runtime_keys: ClassVar[frozenset[str]] = frozenset(
        {"api_key_env", "concurrency", "timeout", "max_retries", "backoff"})

    @classmethod
    def check_settings(cls, settings: dict[str, Any]) -> None:
        super().check_settings(settings)
        url = str(settings["base_url"])
        if not url.startswith(("http://", "https://")):
            raise GenderMTError(f"backend 'openai-compatible': base_url must start with "
                                f"http:// or https://, not {url!r}")
        for key in ("concurrency", "max_retries"):
            if key in settings and int(settings[key]) < (1 if key == "concurrency" else 0):
                raise GenderMTError(f"backend 'openai-compatible': {key} is too small")

    def __init__(self, settings: dict[str, Any], data: pd.DataFrame) -> None:
        super().__init__(settings, data)
        self.url = str(settings["base_url"]).rstrip("/") + "/chat/completions"
        self.model = str(settings["model"])
        self.concurrency = int(settings.get("concurrency", 4))
        self.timeout = float(settings.get("timeout", 60))
        self.max_retries = int(settings.get("max_retries", 5))
        self.backoff = float(settings.get("backoff", 1.0))
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

    def _body(self, request: Request) -> bytes:
        body: dict[str, Any] = {
            "model": self.model,
            "messages": request.messages or [{"role": "user", "content": request.source}],
            "temperature": float(self.settings.get("temperature", 0)),
        }
        for key in ("max_tokens", "top_p", "seed"):
            if key in self.settings:
                body[key] = self.settings[key]
        return json.dumps(body, ensure_ascii=False).encode()

    def _once(self, request: Request) -> str:
        headers = {"Content-Type": "application/json"}
        if self._key:
            headers["Authorization"] = f"Bearer {self._key}"
        req = urllib.request.Request(self.url, data=self._body(request), headers=headers,
                                     method="POST")
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                payload = resp.read()
        except urllib.error.HTTPError as exc:
            detail = exc.read()[:300].decode(errors="replace")
            if exc.code == 429 or exc.code >= 500:
                after = exc.headers.get("Retry-After") if exc.headers else None
                raise Retryable(f"HTTP {exc.code}: {detail}",
                                float(after) if after and after.isdigit() else None) from exc
            raise GenderMTError(f"openai-compatible {self.model} at {self.url}: HTTP "
                                f"{exc.code} for item {request.item_id}: {detail}") from exc
        except TimeoutError as exc:
            raise Retryable(f"no answer within {self.timeout:g} s") from exc
        except (urllib.error.URLError, ConnectionError) as exc:
            raise Retryable(f"connection failed: {getattr(exc, 'reason', exc)}") from exc
        try:
            answer = json.loads(payload)
            text = answer["choices"][0]["message"]["content"]
            if not isinstance(text, str):
                raise TypeError("content is not a string")
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise Retryable(f"malformed answer ({exc}): {payload[:200]!r}") from exc
        tokens = (answer.get("usage") or {}).get("completion_tokens")
        with self._lock:
            self._tokens += int(tokens) if isinstance(tokens, int) else len(text.split())
            self._finish[request.item_id] = str(answer["choices"][0].get("finish_reason")
                                                or "n/a")
        return text

    def _with_retries(self, request: Request) -> str:
        for attempt in range(self.max_retries + 1):
            try:
                return self._once(request)
            except Retryable as exc:
                if attempt == self.max_retries:
                    raise GenderMTError(
                        f"openai-compatible {self.model} at {self.url}: item "
                        f"{request.item_id} failed after {attempt + 1} attempts; last error: "
                        f"{exc}") from exc
                # Exponential backoff with full jitter, unless the server says how long.
                delay = exc.retry_after if exc.retry_after is not None else \
                    random.uniform(0, self.backoff * 2 ** attempt)
                log.warning("%s: item %s, attempt %d failed (%s); retrying in %.2f s",
                            self.model, request.item_id, attempt + 1, exc, delay)
                time.sleep(delay)
        raise AssertionError("unreachable")

    def translate(self, batch: list[Request]) -> list[str]:
        self._tokens = 0
        with ThreadPoolExecutor(max_workers=self.concurrency) as pool:
            outputs = list(pool.map(self._with_retries, batch))
        self.finish_reasons = [self._finish.pop(r.item_id, "n/a") for r in batch]
        return outputs

    def count_tokens(self, texts: list[str]) -> int:
        # The server's own count (usage.completion_tokens) of the last batch.
        return self._tokens
