"""A chat-completions server on 127.0.0.1 for the tests, with failures on demand.

Each request's answer is ``"FR: " + <last user message>``. ``plan`` maps a user message to
the list of misbehaviours its successive requests get before an answer (``"429"``,
``"500"``, ``"slow"``: no answer before the client's timeout, ``"malformed"``: not JSON,
``"empty"``: JSON without choices); ``always`` makes every request get one of them.
``responder``, if given, returns the answer's content for a request body instead (scripted
answers, e.g. an LLM judge's JSON). ``keep_alive``: HTTP/1.1, connections kept open between
requests (``connections`` counts those opened, ``closed`` those the client closed or the
server ended); ``drop_idle``: keep-alive announced, but the server closes each connection
once it answered (as a server closing idle connections does).
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class ChatServer:
    def __init__(self, plan: dict[str, list[str]] | None = None, always: str | None = None,
                 delay: float = 0.0, slow_seconds: float = 2.0,
                 responder: Callable[[dict], str] | None = None, keep_alive: bool = False,
                 drop_idle: bool = False) -> None:
        self.plan = {k: list(v) for k, v in (plan or {}).items()}
        self.always, self.delay, self.slow_seconds = always, delay, slow_seconds
        self.responder = responder
        self.requests: list[dict] = []       # every request body received
        self.answered: list[str] = []        # user messages answered with a translation
        self.auth: set[str | None] = set()
        self.in_flight = self.max_in_flight = 0
        self.connections = self.closed = 0
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1" if keep_alive or drop_idle else "HTTP/1.0"

            def log_message(self, *args):  # keep the test output clean
                pass

            def setup(self):
                super().setup()
                with server.lock:
                    server.connections += 1

            def finish(self):
                try:
                    super().finish()
                finally:
                    with server.lock:
                        server.closed += 1

            def do_POST(self):  # noqa: N802 (the http.server API)
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with server.lock:
                    server.requests.append(body)
                    server.auth.add(self.headers.get("Authorization"))
                    server.in_flight += 1
                    server.max_in_flight = max(server.max_in_flight, server.in_flight)
                try:
                    server.respond(self, body)
                finally:
                    with server.lock:
                        server.in_flight -= 1
                if drop_idle:
                    self.close_connection = True

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def respond(self, handler: BaseHTTPRequestHandler, body: dict) -> None:
        user = [m["content"] for m in body["messages"] if m["role"] == "user"][-1]
        with self.lock:
            queued = self.plan.get(user)
            action = self.always or (queued.pop(0) if queued else "ok")
        if action == "slow":
            time.sleep(self.slow_seconds)
            action = "ok"
        if action in ("429", "500"):
            payload = json.dumps({"error": {"message": f"injected {action}"}}).encode()
            handler.send_response(int(action))
            if action == "429":
                handler.send_header("Retry-After", "0")
        elif action == "malformed":
            payload = b'{"choices": [{"message": {"content": "trunc'
            handler.send_response(200)
        elif action == "empty":
            payload = json.dumps({"object": "chat.completion", "choices": []}).encode()
            handler.send_response(200)
        else:
            time.sleep(self.delay)
            with self.lock:
                self.answered.append(user)
            content = self.responder(body) if self.responder else f"FR: {user}"
            # a responder may say why the answer ended: (content, finish_reason)
            content, finish = content if isinstance(content, tuple) else (content, "stop")
            payload = json.dumps({
                "object": "chat.completion", "model": body["model"],
                "choices": [{"index": 0, "finish_reason": finish,
                             "message": {"role": "assistant", "content": content}}],
                "usage": {"completion_tokens": len(content.split())}}).encode()
            handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(payload)))
        handler.end_headers()
        # the client may have given up (timeout)
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            handler.wfile.write(payload)

    def __enter__(self) -> ChatServer:
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)
