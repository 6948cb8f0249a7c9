"""What the loopback stand-ins of the paid translation services share (the Azure Translator
and Amazon Translate servers build on it): a threaded HTTP/1.1 server on 127.0.0.1, faults on
demand, and the counts the tests assert on.

``plan`` maps a source text to the faults its successive requests get before an answer;
``always`` gives every request one fault (a 429 storm). A fault is a name, optionally with an
argument after ``@`` (``429@2``: Retry-After 2). The faults every stand-in knows:

``drop``       the connection closes before any status line (a dropped connection)
``malformed``  200 with a JSON body cut short
``slow``       the answer after ``slow_seconds`` (beyond a client's timeout)

Each subclass adds its vendor's own (throttling, quota, server errors) in ``handle``.
Every text answered is billed: ``billed_chars`` counts its characters (what the vendors
charge for), ``answered`` lists each ``(target language, text)``; ``requests`` keeps each
request as the server parsed it, ``headers`` each request's headers (for the key checks).
After ``max_requests`` requests every answer is a 400, so a client that retries without end
fails fast instead of hanging the suite.

``hold_after``: once that many texts are billed, every request that arrives waits, unanswered
and unbilled, until :meth:`release` (``held`` counts them): a test kills its client while they
are in flight, then releases them; they are dropped without an answer (the client is gone).
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class StandInServer:
    """A loopback server; subclasses implement ``handle(handler, body) -> None``."""

    def __init__(self, plan: dict[str, list[str]] | None = None, always: str | None = None,
                 delay: float = 0.0, slow_seconds: float = 3.0, max_requests: int = 2000
                 ) -> None:
        self.plan = {k: list(v) for k, v in (plan or {}).items()}
        self.always, self.delay, self.slow_seconds = always, delay, slow_seconds
        self.max_requests = max_requests
        self.hold_after: int | None = None
        self.held = 0
        self.gate = threading.Event()
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.faults: list[str] = []          # each fault committed, in order
        self.answered: list[tuple[str, str]] = []  # (target, text) of each answer (billed)
        self.billed_chars = 0
        self.violations: list[str] = []      # requests over the service's limits
        self.in_flight = self.max_in_flight = 0
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # keep the test output clean
                pass

            def do_POST(self) -> None:  # noqa: N802 (the http.server API)
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with server.lock:
                    server.headers.append(dict(self.headers.items()))
                    server.in_flight += 1
                    server.max_in_flight = max(server.max_in_flight, server.in_flight)
                    over = len(server.headers) > server.max_requests
                try:
                    if server.hold_after is not None and \
                            len(server.answered) >= server.hold_after:
                        with server.lock:
                            server.held += 1
                        server.gate.wait(60)
                        server.common_fault(self, "drop")  # nobody waits for the answer
                    elif over:
                        server.send_json(self, 400, {"message": "stand-in: request budget spent"})
                    else:
                        server.handle(self, body)
                finally:
                    with server.lock:
                        server.in_flight -= 1

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    # -- what subclasses call -----------------------------------------------------------
    def fault_for(self, texts: list[str]) -> str | None:
        """The fault this request gets: ``always``, else the first text's queued one."""
        with self.lock:
            if self.always:
                self.faults.append(self.always)
                return self.always
            for text in texts:
                queued = self.plan.get(text)
                if queued:
                    fault = queued.pop(0)
                    self.faults.append(fault)
                    return fault
        return None

    def common_fault(self, handler: BaseHTTPRequestHandler, fault: str) -> bool:
        """Commit one of the shared faults; False when ``fault`` is not one of them."""
        if fault == "drop":
            handler.close_connection = True
            with contextlib.suppress(OSError):
                handler.connection.shutdown(socket.SHUT_RDWR)
            return True
        if fault == "malformed":
            self.send_raw(handler, 200, b'[{"translations": [{"text": "trunc')
            return True
        return False

    def release(self) -> None:
        """Let the held requests end (dropped, unanswered) and hold no more."""
        self.hold_after = None
        self.gate.set()

    def bill(self, texts: list[str], target: str) -> None:
        with self.lock:
            self.answered.extend((target, t) for t in texts)
            self.billed_chars += sum(len(t) for t in texts)

    @staticmethod
    def send_raw(handler: BaseHTTPRequestHandler, status: int, payload: bytes,
                 headers: dict[str, str] | None = None,
                 content_type: str = "application/json") -> None:
        handler.send_response(status)
        handler.send_header("Content-Type", content_type)
        for name, value in (headers or {}).items():
            handler.send_header(name, value)
        handler.send_header("Content-Length", str(len(payload)))
        handler.end_headers()
        # the client may have given up (its timeout)
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            handler.wfile.write(payload)

    def send_json(self, handler: BaseHTTPRequestHandler, status: int, value: Any,
                  headers: dict[str, str] | None = None,
                  content_type: str = "application/json") -> None:
        self.send_raw(handler, status, json.dumps(value, ensure_ascii=False).encode(),
                      headers, content_type)

    def pause(self, fault: str | None) -> None:
        time.sleep(self.slow_seconds if fault == "slow" else self.delay)

    def handle(self, handler: BaseHTTPRequestHandler, body: bytes) -> None:
        raise NotImplementedError

    # -- lifecycle ----------------------------------------------------------------------
    def __enter__(self) -> StandInServer:
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)
