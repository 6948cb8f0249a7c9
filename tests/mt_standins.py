"""Loopback stand-ins of commercial MT services for the tests: each speaks its API's wire
format (paths, auth, request and answer shapes) and counts what it receives.

Every answer is ``"<TARGET>| " + text``. ``plan``: a list of misbehaviours, one per request
in turn before normal answers resume (``"429"``: rate limited with ``Retry-After:
retry_after``; ``"500"``/``"503"``; ``"quota"``: the vendor's quota error, DeepL 456 / Google
403 ``dailyLimitExceeded``; ``"malformed"``: a 200 whose body is not the API's shape;
``"drop"``: the connection closed with no answer; ``None``: a normal answer); ``always``: every
request misbehaves so. ``delay``: seconds before each normal answer. The server records
every request received (``requests``: texts, target, auth), the characters of texts it
answered (``chars_answered``) and every breach of the API's limits (``breaches``).
"""

from __future__ import annotations

import json
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class StandIn:
    """The common part: a threaded HTTP server on 127.0.0.1 and the bookkeeping."""

    max_texts = 50
    max_bytes: int | None = None
    max_chars: int | None = None

    def __init__(self, key: str, plan: list[str | None] | None = None,
                 always: str | None = None, retry_after: str = "1", delay: float = 0.0) -> None:
        self.key, self.plan, self.always = key, list(plan or []), always
        self.retry_after, self.delay = retry_after, delay
        self.requests: list[dict[str, Any]] = []
        self.answered: list[str] = []   # texts answered with a translation, in order
        self.breaches: list[str] = []
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                server.handle(self, raw)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    @property
    def chars_answered(self) -> int:
        return sum(map(len, self.answered))

    def __enter__(self) -> StandIn:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    # -- what a request gets -------------------------------------------------------------
    def next_action(self) -> str | None:
        with self.lock:
            if self.plan:
                return self.plan.pop(0)
            return self.always

    def reply(self, h: BaseHTTPRequestHandler, status: int, body: Any,
              headers: dict[str, str] | None = None) -> None:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        h.send_response(status)
        h.send_header("Content-Type", "application/json")
        h.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            h.send_header(k, v)
        h.end_headers()
        h.wfile.write(data)

    def handle(self, h: BaseHTTPRequestHandler, raw: bytes) -> None:
        parsed = self.parse(h, raw)
        if parsed is None:
            return
        texts, target = parsed
        with self.lock:
            self.requests.append({"texts": texts, "target": target, "bytes": len(raw),
                                  "path": h.path})
            if len(texts) > self.max_texts:
                self.breaches.append(f"{len(texts)} texts")
            if self.max_bytes is not None and len(raw) > self.max_bytes:
                self.breaches.append(f"{len(raw)} bytes")
            if self.max_chars is not None and sum(map(len, texts)) > self.max_chars:
                self.breaches.append(f"{sum(map(len, texts))} code points")
        if self.misbehave(h, self.next_action()):
            return
        if self.delay:
            time.sleep(self.delay)
        outs = [f"{target}| {t}" for t in texts]
        with self.lock:
            self.answered.extend(texts)
        self.reply(h, 200, self.answer(outs, texts))

    def misbehave(self, h: BaseHTTPRequestHandler, action: str | None) -> bool:
        """Answer ``action``'s misbehaviour (see the module); False for a normal answer."""
        if action == "drop":
            h.close_connection = True
            h.connection.shutdown(2)
        elif action == "429":
            self.reply(h, 429, {"message": "Too many requests"},
                       {"Retry-After": self.retry_after})
        elif action in ("500", "503"):
            self.reply(h, int(action), {"message": "unavailable"},
                       {"Retry-After": self.retry_after})
        elif action == "quota":
            self.quota(h)
        elif action == "malformed":
            self.reply(h, 200, b"<html>not the API</html>")
        else:
            return False
        return True

    # -- the API's own shapes (subclasses) -------------------------------------------------
    def parse(self, h: BaseHTTPRequestHandler, raw: bytes) -> tuple[list[str], str] | None:
        raise NotImplementedError

    def answer(self, outs: list[str], texts: list[str]) -> Any:
        raise NotImplementedError

    def quota(self, h: BaseHTTPRequestHandler) -> None:
        raise NotImplementedError


class DeepLStandIn(StandIn):
    """DeepL API v2 ``POST /v2/translate``: ``Authorization: DeepL-Auth-Key <key>``, a JSON
    body ``{"text": [...], "target_lang": ..., "source_lang"?, "formality"?, ...}``; at most
    50 texts and 128 KiB; 456 when the quota is spent."""

    max_texts, max_bytes = 50, 128 * 1024
    prefix = ""  # a private endpoint's own path (``/deepl``)

    def parse(self, h: BaseHTTPRequestHandler, raw: bytes) -> tuple[list[str], str] | None:
        if h.path != self.prefix + "/v2/translate":
            self.reply(h, 404, {"message": f"no {h.path}"})
            return None
        if h.headers.get("Authorization") != f"DeepL-Auth-Key {self.key}":
            self.reply(h, 403, {"message": "Wrong endpoint or key"})
            return None
        body = json.loads(raw)
        with self.lock:
            self.bodies = getattr(self, "bodies", []) + [
                {k: v for k, v in body.items() if k != "text"}]
        return list(body["text"]), str(body["target_lang"])

    def answer(self, outs: list[str], texts: list[str]) -> Any:
        return {"translations": [{"detected_source_language": "EN", "text": o,
                                  "billed_characters": len(t)}
                                 for o, t in zip(outs, texts, strict=True)]}

    def quota(self, h: BaseHTTPRequestHandler) -> None:
        self.reply(h, 456, {"message": "Quota Exceeded"})


class GoogleStandIn(StandIn):
    """Cloud Translation v2 ``POST /language/translate/v2?key=`` (``{"q": [...], "target"}``
    → ``{"data": {"translations": [{"translatedText"}]}}``; 128 texts, 30k code points,
    204,800 bytes) and v3 ``POST /v3/projects/P/locations/L:translateText`` (``key=`` or
    ``Authorization: Bearer``; ``{"contents", "targetLanguageCode", "model"}`` →
    ``{"translations": [...]}``; 1,024 texts, 30k code points); quota: 403
    ``dailyLimitExceeded``."""

    def __init__(self, key: str, version: str = "v2", **kw: Any) -> None:
        super().__init__(key, **kw)
        self.version = version
        self.max_texts = 128 if version == "v2" else 1024
        self.max_chars = 30_000
        self.max_bytes = 204_800 if version == "v2" else None
        self.models: list[str] = []

    def parse(self, h: BaseHTTPRequestHandler, raw: bytes) -> tuple[list[str], str] | None:
        url = urllib.parse.urlsplit(h.path)
        query = urllib.parse.parse_qs(url.query)
        keyed = query.get("key") == [self.key]
        bearer = h.headers.get("Authorization") == f"Bearer {self.key}"
        ok_path = (url.path == "/language/translate/v2" if self.version == "v2"
                   else url.path.startswith("/v3/projects/") and
                   url.path.endswith(":translateText"))
        if not ok_path:
            self.reply(h, 404, {"error": {"code": 404, "message": f"no {url.path}"}})
            return None
        if not (keyed or (bearer and self.version == "v3")):
            self.reply(h, 403, {"error": {"code": 403, "message": "The request is missing a "
                                          "valid API key.", "status": "PERMISSION_DENIED"}})
            return None
        body = json.loads(raw)
        if self.version == "v2":
            if body.get("format") != "text":
                self.breaches.append("format not text")
            return list(body["q"]), str(body["target"])
        with self.lock:
            self.models.append(str(body.get("model")))
        return list(body["contents"]), str(body["targetLanguageCode"])

    def answer(self, outs: list[str], texts: list[str]) -> Any:
        found = [{"translatedText": o} for o in outs]
        return {"data": {"translations": found}} if self.version == "v2" else \
            {"translations": found}

    def quota(self, h: BaseHTTPRequestHandler) -> None:
        self.reply(h, 403, {"error": {"code": 403, "message": "Daily Limit Exceeded",
                                      "errors": [{"reason": "dailyLimitExceeded",
                                                  "domain": "usageLimits"}]}})
