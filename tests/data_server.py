"""A file server on 127.0.0.1 for the data-fetching tests: serves a folder (the real data in
``../shared/data``) as ``/<dataset>/<file>``, counts the requests per path, and commits faults
on demand:

``drop``     200 with the full ``Content-Length``, half the body, then the connection closes
``tamper``   200 with the file's bytes, one changed (same size: only the hash tells)

``faults`` maps a path (``/gate-x-e/LICENSE``) to the faults of its successive requests
(``["drop"]``: the first request is cut off, the next served whole); ``always`` faults every
request of that path.
"""

from __future__ import annotations

import threading
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote


class DataServer:
    def __init__(self, root: Path, faults: dict[str, list[str]] | None = None,
                 always: dict[str, str] | None = None) -> None:
        self.root = Path(root)
        self.faults = {k: list(v) for k, v in (faults or {}).items()}
        self.always = dict(always or {})
        self.requests: Counter[str] = Counter()
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:  # quiet
                pass

            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                path = unquote(self.path.split("?", 1)[0])
                with server._lock:
                    server.requests[path] += 1
                    queue = server.faults.get(path) or []
                    fault = queue.pop(0) if queue else server.always.get(path)
                file = (server.root / path.lstrip("/")).resolve()
                if not file.is_file() or server.root.resolve() not in file.parents:
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                body = file.read_bytes()
                if fault == "tamper":
                    body = bytes([body[0] ^ 1]) + body[1:]
                self.send_response(200)
                self.send_header("Content-Type", "application/octet-stream")
                self.send_header("Content-Length", str(len(body)))
                if fault == "drop":
                    self.send_header("Connection", "close")
                self.end_headers()
                if fault == "drop":
                    self.wfile.write(body[: len(body) // 2])
                    self.wfile.flush()
                    self.close_connection = True
                    return
                self.wfile.write(body)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return self.httpd.server_address[1]

    @property
    def mirror(self) -> str:
        """The ``data_sources.mirror`` template that points at this server."""
        return f"http://127.0.0.1:{self.port}/{{dataset}}/{{file}}"

    def __enter__(self) -> DataServer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
