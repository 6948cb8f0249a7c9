"""A file server on 127.0.0.1 for the data-fetching tests: serves a folder (the real data in
``../shared/data``) as ``/<dataset>/<file>``, counts the requests per path, and commits faults
on demand:

``drop``     200 with the full ``Content-Length``, half the body, then the connection closes
``tamper``   200 with the file's bytes, one changed (same size: only the hash tells)
``long``     200 with the file's bytes and more after them (``Content-Length`` says so)
``slow``     200 with the full ``Content-Length``, the body sent at ``rate`` bytes a second
``unavailable`` 503, no body

``faults`` maps a path (``/gate-x-e/LICENSE``) to the faults of its successive requests
(``["drop"]``: the first request is cut off, the next served whole); ``always`` faults every
request of that path. ``routes`` maps URL paths to files instead (a stand-in for a public
host's own layout, e.g. GitHub's ``/<owner>/<repo>/<commit>/<path>``: see
:func:`github_routes`); with it, ``root`` serves nothing.
"""

from __future__ import annotations

import threading
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote


class DataServer:
    def __init__(self, root: Path, faults: dict[str, list[str]] | None = None,
                 always: dict[str, str] | None = None,
                 routes: dict[str, Path] | None = None, rate: float = 64.0) -> None:
        self.root = Path(root)
        self.rate = rate  # bytes a second of a ``slow`` fault
        self.routes = None if routes is None else {k: Path(v) for k, v in routes.items()}
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
                if fault == "unavailable":
                    self.send_response(503)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                if server.routes is not None:
                    file = server.routes.get(path, server.root / "\0absent")
                else:
                    file = (server.root / path.lstrip("/")).resolve()
                if not file.is_file() or (server.routes is None
                                          and server.root.resolve() not in file.parents):
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                _send(self, file.read_bytes(), fault, server.rate)

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

    @property
    def github(self) -> str:
        """The ``data_sources.mirror`` template of a GitHub stand-in (``routes`` from
        :func:`github_routes`): raw.githubusercontent.com's layout on this server."""
        return f"http://127.0.0.1:{self.port}/{{repo}}/{{commit}}/{{path}}"

    def __enter__(self) -> DataServer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def github_routes(manifests, local: Path) -> dict[str, Path]:
    """URL path → file for a GitHub stand-in: each manifest's files at
    ``/<owner>/<repo>/<commit>/<upstream path>`` (raw.githubusercontent.com's layout), served
    from a local copy laid out as the manifest's ``file``s (``local/<name>/<file>``)."""
    return {f"/{m.repository}/{m.commit}/{f.path}": Path(local) / m.name / f.file
            for m in manifests for f in m.files}


class HubServer(DataServer):
    """A stand-in for the Hugging Face Hub on 127.0.0.1, as ``huggingface_hub``'s
    ``hf_hub_download`` reads it: ``HEAD`` then ``GET`` of
    ``/datasets/<repo id>/resolve/<revision>/<path>``, answered with the file's size, an ETag
    and ``X-Repo-Commit``; any other revision or path is a 404. ``files`` maps
    ``(repo id, revision, path)`` to a local file; faults as :class:`DataServer`'s, by URL
    path."""

    def __init__(self, files: dict[tuple[str, str, str], Path],
                 always: dict[str, str] | None = None,
                 commits: dict[str, str] | None = None) -> None:
        routes = {f"/datasets/{repo}/resolve/{rev}/{path}": Path(local)
                  for (repo, rev, path), local in files.items()}
        super().__init__(Path("/nonexistent"), always=always, routes=routes)
        # X-Repo-Commit: the commit a branch or tag (``commits``) names, or the revision
        commits = commits or {}
        self.revisions = {f"/datasets/{repo}/resolve/{rev}/{path}": commits.get(rev, rev)
                          for (repo, rev, path) in files}
        server = self
        base = self.httpd.RequestHandlerClass

        class Handler(base):
            def _headers(self, body: bytes, path: str) -> None:
                import hashlib

                self.send_header("Content-Length", str(len(body)))
                self.send_header("ETag", f'"{hashlib.sha256(body).hexdigest()}"')
                self.send_header("X-Repo-Commit", server.revisions[path])
                self.send_header("Content-Type", "application/octet-stream")

            def do_HEAD(self) -> None:  # noqa: N802 - http.server's name
                path = unquote(self.path.split("?", 1)[0])
                with server._lock:
                    server.heads[path] += 1
                file = server.routes.get(path)
                if file is None or not file.is_file():
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                body = file.read_bytes()
                self.send_response(200)
                self._headers(body, path)
                self.end_headers()

        self.heads: Counter[str] = Counter()
        self.httpd.RequestHandlerClass = Handler

    @property
    def endpoint(self) -> str:
        """The ``data_sources.hub_endpoint`` that points at this server."""
        return f"http://127.0.0.1:{self.port}"


def _send(self: BaseHTTPRequestHandler, body: bytes, fault: str | None, rate: float
          ) -> None:
    """A 200 answer with ``body``, as ``fault`` (if any) says."""
    if fault == "tamper":
        body = bytes([body[0] ^ 1]) + body[1:]
    elif fault == "long":
        body += b"and more bytes than the manifest declares\n"
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
    if fault == "slow":
        _trickle(self, body, rate)
        return
    self.wfile.write(body)


def _trickle(self: BaseHTTPRequestHandler, body: bytes, rate: float) -> None:
    """``body`` at ``rate`` bytes a second, a quarter second's worth at a time,
    until it is sent or the client has gone."""
    import time

    step = max(1, int(rate / 4))
    try:
        for start in range(0, len(body), step):
            self.wfile.write(body[start:start + step])
            self.wfile.flush()
            time.sleep(step / rate)
    except OSError:  # the client gave up (a deadline): nothing more to send
        pass
    self.close_connection = True
