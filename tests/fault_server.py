"""A chat-completions server on 127.0.0.1 that commits every transport fault on demand.

It extends :class:`tests.chat_server.ChatServer` (same ``plan``/``always`` mechanism: a user
message maps to the faults its successive requests get before an answer) with faults at the
level of bytes and headers:

``drop``          200 with ``Content-Length`` N, half the body, then the connection closes
``reset``         the connection closes before any status line (``RemoteDisconnected``)
``empty-text``    a well-formed answer whose content is ``""``
``blank``         a well-formed answer whose content is only whitespace
``null``          a well-formed answer whose content is ``null``
``trickle``       a valid answer sent one byte every ``trickle_interval`` seconds
``malformed``     200 with a JSON body cut short
``429``, ``500``, ``503``, ``408``   an error status; ``429@2`` adds ``Retry-After: 2``,
                  ``503@date+3`` an HTTP-date 3 s ahead, ``429@junk`` an unparsable one
``echo-401``, ``echo-500``   an error whose body echoes the request's Authorization header
``cut-401@N``     a 401 whose body has the key start N characters before byte 300 (where an
                  excerpt of the body is cut)
``part-500@N``    a 500 whose body echoes the key's first N characters only
``echo-answer``   a normal answer whose text carries the request's Authorization header
``huge@N``        a well-formed answer of N MB

Bounded: it binds 127.0.0.1 only, every fault ends within ``trickle_interval`` × body size
(or ``slow_seconds``), and after ``max_requests`` requests it answers 400, so that a client
that retries without end fails fast instead of hanging the suite.
"""

from __future__ import annotations

import contextlib
import json
import socket
import time
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler

from .chat_server import ChatServer


class FaultServer(ChatServer):
    def __init__(self, plan: dict[str, list[str]] | None = None, always: str | None = None,
                 trickle_interval: float = 0.05, max_requests: int = 400, **kwargs) -> None:
        super().__init__(plan, always, **kwargs)
        self.trickle_interval = trickle_interval
        self.max_requests = max_requests

    def respond(self, handler: BaseHTTPRequestHandler, body: dict) -> None:
        user = [m["content"] for m in body["messages"] if m["role"] == "user"][-1]
        with self.lock:
            over = len(self.requests) > self.max_requests
            queued = self.plan.get(user)
            action = self.always or (queued[0] if queued else "ok")
        if over:
            return self._send(handler, 400, b'{"error": "fault server: request budget spent"}')
        name, _, arg = action.partition("@")
        if name not in FAULTS:  # the base server's own faults and answers
            return super().respond(handler, body)
        with self.lock:
            if queued and not self.always:
                queued.pop(0)
        FAULTS[name](self, handler, body, user, arg)

    # -- helpers ----------------------------------------------------------------------
    @staticmethod
    def _send(handler, status: int, payload: bytes, headers: dict[str, str] | None = None,
              length: int | None = None) -> None:
        handler.send_response(status)
        for key, value in (headers or {}).items():
            handler.send_header(key, value)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(payload) if length is None else length))
        handler.end_headers()
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            handler.wfile.write(payload)
            handler.wfile.flush()

    @staticmethod
    def _answer(body: dict, content) -> bytes:
        return json.dumps({
            "object": "chat.completion", "model": body["model"],
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": content}}],
            "usage": {"completion_tokens": 1}}).encode()

    @staticmethod
    def _close(handler) -> None:
        handler.close_connection = True
        with contextlib.suppress(OSError):
            handler.wfile.flush()
            handler.connection.shutdown(socket.SHUT_RDWR)

    # -- faults -----------------------------------------------------------------------
    def _drop(self, handler, body, user, arg) -> None:
        payload = self._answer(body, f"FR: {user}")
        self._send(handler, 200, payload[:len(payload) // 2], length=len(payload))
        self._close(handler)

    def _reset(self, handler, body, user, arg) -> None:
        self._close(handler)

    def _content(self, content):
        def fault(self, handler, body, user, arg) -> None:
            self._send(handler, 200, self._answer(body, content))
        return fault

    def _trickle(self, handler, body, user, arg) -> None:
        payload = self._answer(body, f"FR: {user}")
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(payload)))
        handler.end_headers()
        try:
            for i in range(len(payload)):
                handler.wfile.write(payload[i:i + 1])
                handler.wfile.flush()
                time.sleep(self.trickle_interval)
        except OSError:  # the client gave up: what the fault is for
            self._close(handler)

    def _status(self, handler, body, user, arg, status: int) -> None:
        headers = {}
        if arg.startswith("date"):
            ahead = float(arg[len("date"):] or 0)
            headers["Retry-After"] = formatdate(time.time() + ahead, usegmt=True)
        elif arg:
            headers["Retry-After"] = arg
        self._send(handler, status, json.dumps({"error": {"message": f"fault {status}"}})
                   .encode(), headers)

    def _echo(self, handler, body, user, arg, status: int) -> None:
        auth = handler.headers.get("Authorization", "")
        self._send(handler, status, json.dumps(
            {"error": {"message": f"invalid credentials: {auth}", "header": auth}}).encode())

    def _cut(self, handler, body, user, arg) -> None:
        key = handler.headers.get("Authorization", "").removeprefix("Bearer ")
        pad = 300 - int(arg or 20)
        self._send(handler, 401, ("x" * pad + key + " is not a valid key").encode())

    def _part(self, handler, body, user, arg) -> None:
        key = handler.headers.get("Authorization", "").removeprefix("Bearer ")
        self._send(handler, 500, f"overloaded (key {key[:int(arg or 12)]}...)".encode())

    def _echo_answer(self, handler, body, user, arg) -> None:
        auth = handler.headers.get("Authorization", "")
        self._send(handler, 200, self._answer(body, f"FR: {user} ({auth})"))

    def _huge(self, handler, body, user, arg) -> None:
        self._send(handler, 200, self._answer(body, "x" * int(float(arg or 1) * 1e6)))


FAULTS = {
    "huge": FaultServer._huge,
    "cut-401": FaultServer._cut,
    "part-500": FaultServer._part,
    "echo-answer": FaultServer._echo_answer,
    "drop": FaultServer._drop,
    "reset": FaultServer._reset,
    "empty-text": FaultServer._content(None, ""),
    "blank": FaultServer._content(None, "  \n\t "),
    "null": FaultServer._content(None, None),
    "trickle": FaultServer._trickle,
    **{code: (lambda c: lambda self, h, b, u, a: self._status(h, b, u, a, c))(int(code))
       for code in ("408", "429", "500", "503")},
    "echo-401": lambda self, h, b, u, a: self._echo(h, b, u, a, 401),
    "echo-500": lambda self, h, b, u, a: self._echo(h, b, u, a, 500),
}
