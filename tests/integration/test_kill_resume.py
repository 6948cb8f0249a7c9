"""A translation job killed with SIGKILL mid-run and started again translates only what is
missing; the finished file has every item once, in item order."""

import contextlib
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from gendermt.data.io import read_jsonl, write_jsonl
from gendermt.translation.runner import translate_file

from ..chat_server import ChatServer
from ..conftest import ROOT

JOB = """
import json, sys
from gendermt.translation.runner import translate_file
args = json.loads(sys.argv[1])
translate_file(args["inputs"], args["data"], "api", args["settings"], args["out"], args["meta"],
               [], cache_dir=args["cache"])
"""


def valid_lines(path):
    lines = path.read_text().splitlines() if path.exists() else []
    good = []
    for line in lines:
        with contextlib.suppress(json.JSONDecodeError, KeyError):
            good.append(json.loads(line)["item_id"])
    return good


def start_and_kill(args, partial, at_least):
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.Popen([sys.executable, "-c", JOB, json.dumps(args)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while len(valid_lines(partial)) < at_least:
        assert proc.poll() is None, proc.stderr.read().decode()[-2000:]
        assert time.monotonic() < deadline, "the job made no progress"
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(10)
    proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL


def job_files(tmp_path, rows):
    """The job's data and inputs (each source as the user message) written, and where its
    output, metadata and partial file go."""
    data = tmp_path / "data.parquet"
    rows.to_parquet(data)
    inputs = tmp_path / "inputs.jsonl"
    write_jsonl(inputs, ({"item_id": r.item_id, "prompt": "baseline", "source": r.source,
                          "messages": [{"role": "user", "content": r.source}]}
                         for r in rows.itertuples()))
    out, meta = tmp_path / "t" / "baseline.jsonl", tmp_path / "t" / "baseline.meta.json"
    return data, inputs, out, meta, out.with_name(out.name + ".partial")


@pytest.mark.parametrize("keep_alive", [False, True])
def test_sigkill_and_resume(tmp_path, sample_data, keep_alive):
    """Also with a keep-alive server (the engine's pooled connections, its WAL cache)."""
    rows = sample_data.drop_duplicates("source").head(30)
    ids = list(rows["item_id"])
    data, inputs, out, meta, partial = job_files(tmp_path, rows)
    with ChatServer(delay=0.03, keep_alive=keep_alive) as server:
        settings = {"backend": "openai-compatible", "base_url": server.url, "model": "m",
                    "batch_size": 2, "concurrency": 1, "timeout": 10}
        args = {"inputs": str(inputs), "data": str(data), "settings": settings,
                "out": str(out), "meta": str(meta), "cache": str(tmp_path / "cache")}
        start_and_kill(args, partial, at_least=6)
        start_and_kill(args, partial, at_least=len(valid_lines(partial)) + 6)
        assert not out.exists() and not meta.exists()  # nothing that looks finished
        kept = set(valid_lines(partial))
        sent_before = len(server.requests)
        assert 12 <= len(kept) < len(ids)
        translate_file(inputs, data, "api", settings, out, meta, [],
                       cache_dir=tmp_path / "cache")
        # only the missing items were asked for
        resent = [m["messages"][-1]["content"] for m in server.requests[sent_before:]]
        source = dict(zip(rows["item_id"], rows["source"], strict=True))
        assert sorted(resent) == sorted(source[i] for i in ids if i not in kept)
    records = read_jsonl(out)
    assert [r["item_id"] for r in records] == ids
    assert all(r["raw"] == f"FR: {source[r['item_id']]}" for r in records)
    info = json.loads(meta.read_text())
    assert info["resumed_items"] == len(kept) and info["translated_this_run"] == 30 - len(kept)
    assert not partial.exists()


def test_sigkill_mid_batch_keeps_every_answer_received(tmp_path, sample_data):
    """Issue 18 item 14: answers reach the partial file as they arrive, not per batch: a
    SIGKILL in the middle of one large batch loses none of the answers already paid for."""
    rows = sample_data.drop_duplicates("source").head(30)
    data, inputs, out, meta, partial = job_files(tmp_path, rows)
    with ChatServer(delay=0.1) as server:
        settings = {"backend": "openai-compatible", "base_url": server.url, "model": "m",
                    "batch_size": 30, "concurrency": 1, "timeout": 10}
        args = {"inputs": str(inputs), "data": str(data), "settings": settings,
                "out": str(out), "meta": str(meta), "cache": None}
        start_and_kill(args, partial, at_least=5)
        kept = set(valid_lines(partial))
        assert 5 <= len(kept) < 30 and not out.exists()
        sent_before = len(server.requests)
        translate_file(inputs, data, "api", settings, out, meta, [])
        assert len(server.requests) - sent_before == 30 - len(kept)
    assert [r["item_id"] for r in read_jsonl(out)] == list(rows["item_id"])
    assert json.loads(meta.read_text())["resumed_items"] == len(kept)


class Killed(BaseException):
    """Stands for a SIGKILL: nothing after it runs (not an Exception: no handler sees it)."""


def test_kill_between_partial_file_and_cache_then_nothing_is_sent_again(
        tmp_path, sample_data, monkeypatch):
    """A kill after a batch reached the partial file but before it reached the request cache
    (CI caught it through transformers serve): the resuming run stores those answers in the
    cache, so a third run with the outputs deleted sends nothing."""
    from gendermt.translation.cache import RequestCache

    rows = sample_data.drop_duplicates("source").head(8)
    data, inputs, out, meta, partial = job_files(tmp_path, rows)
    cache = tmp_path / "cache"
    put_many, calls = RequestCache.put_many, []

    def killed_on_the_third_batch(self, *args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise Killed
        return put_many(self, *args, **kwargs)

    with ChatServer() as server:
        settings = {"backend": "openai-compatible", "base_url": server.url, "model": "m",
                    "batch_size": 1, "concurrency": 1, "timeout": 10}
        with monkeypatch.context() as m:
            m.setattr(RequestCache, "put_many", killed_on_the_third_batch)
            with contextlib.suppress(Killed):
                translate_file(inputs, data, "api", settings, out, meta, [], cache_dir=cache)
        assert len(valid_lines(partial)) == 3 and len(RequestCache(cache)) == 2
        translate_file(inputs, data, "api", settings, out, meta, [], cache_dir=cache)
        assert len(server.requests) == 8 and len(RequestCache(cache)) == 8
        first = [r["raw"] for r in read_jsonl(out)]
        out.unlink()
        meta.unlink()
        translate_file(inputs, data, "api", settings, out, meta, [], cache_dir=cache)
        assert len(server.requests) == 8  # every answer from the cache
    assert [r["raw"] for r in read_jsonl(out)] == first
    # the backfilled answers keep the run that made them: the killed one and its resumption
    runs = json.loads(meta.read_text())["runs"]
    assert len(runs) == 2 and sum(r["items_here"] for r in runs) == 8
