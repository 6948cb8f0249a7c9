"""The engine's per-job resources (issue 30): one keep-alive connection pool, one executor
and one SQLite connection per job, one commit a batch, syncs to disk at a stated cadence;
closed when the job ends; every crash guarantee kept (tests/integration/test_kill_resume.py and the
fault tests run on the same code)."""

import json
import multiprocessing
import sqlite3
import threading
import time

import pandas as pd
import pytest

from gendermt.data.io import read_jsonl, write_jsonl
from gendermt.translation import engine as engine_module
from gendermt.translation.backends import Request, build_backend
from gendermt.translation.cache import RequestCache, _filesystem_of, journal_mode
from gendermt.translation.engine import SYNC, Engine
from gendermt.translation.runner import translate_file

from ..chat_server import ChatServer

N = 24


@pytest.fixture
def stage(tmp_path, sample_data):
    rows = sample_data.drop_duplicates("source").head(N)
    data = tmp_path / "data.parquet"
    rows.to_parquet(data)
    inputs = tmp_path / "inputs.jsonl"
    write_jsonl(inputs, ({"item_id": r.item_id, "prompt": "baseline", "source": r.source,
                          "messages": [{"role": "user", "content": r.source}]}
                         for r in rows.itertuples()))

    def run(server, out_dir="t", **extra):
        out = tmp_path / out_dir / "baseline.jsonl"
        settings = {"backend": "openai-compatible", "base_url": server.url, "model": "m",
                    "max_retries": 0, "concurrency": 3, "batch_size": 5, **extra}
        translate_file(inputs, data, "api", settings, out, out.with_suffix(".meta.json"),
                       cache_dir=tmp_path / "cache")
        return read_jsonl(out), json.loads(out.with_suffix(".meta.json").read_text())

    run.sources = list(rows["source"])
    return run


def job_threads():
    return {t.name for t in threading.enumerate() if t.name.startswith("gendermt-")}


def test_connections_are_kept_alive_across_batches_and_closed_at_the_end(stage):
    """Five batches, three at a time: at most three connections for the whole job (one a
    request before), every one closed when the job ends; the same three worker threads
    answer every batch (one executor a job, not one a batch), gone at the end too."""
    seen = set()

    def responder(body):
        seen.update(n for n in job_threads() if n.startswith("gendermt-http"))
        return "FR: " + body["messages"][-1]["content"]

    with ChatServer(keep_alive=True, responder=responder) as server:
        records, meta = stage(server)
        deadline = time.monotonic() + 10  # the server notices the closed connections
        while server.closed < server.connections and time.monotonic() < deadline:
            time.sleep(0.02)
        assert len(server.requests) == N and meta["requests_sent"] == N
        assert 1 <= server.connections <= 3, server.connections
        assert server.closed == server.connections
    assert [r["raw"] for r in records] == [f"FR: {s}" for s in stage.sources]
    assert 1 <= len(seen) <= 3, seen
    assert not job_threads()  # workers, watchdog and heartbeat all ended


def test_a_server_closing_idle_connections_costs_no_attempt(stage):
    """A server that announces keep-alive but closes each connection once it answered:
    the closed connection is noticed (or the request sent once more on a new one), never
    counted as a failed attempt (max_retries 0 would fail the item)."""
    with ChatServer(drop_idle=True) as server:
        records, meta = stage(server)
        assert len(server.requests) == N and server.connections == N
    assert [r["raw"] for r in records] == [f"FR: {s}" for s in stage.sources]


def test_the_deadline_holds_on_a_reused_connection(stage):
    """A request on a kept-alive connection that gets no answer ends at its deadline and is
    retried on a new connection."""
    with ChatServer(keep_alive=True, plan={stage.sources[7]: ["slow"]},
                    slow_seconds=3.0) as server:
        t0 = time.monotonic()
        records, _ = stage(server, timeout=0.5, max_retries=1, backoff=0.0)
        assert time.monotonic() - t0 < 2.5
    assert [r["raw"] for r in records] == [f"FR: {s}" for s in stage.sources]


def commits_and_syncs(tmp_path, server, monkeypatch, sync_every, n=N, batch_size=4):
    """Run the engine on ``n`` requests; count the cache's commits while sending, its
    durable ones, and the caller's syncs (``SYNC``)."""
    monkeypatch.setattr(engine_module, "SYNC_EVERY", sync_every)
    backend = build_backend({"backend": "openai-compatible", "base_url": server.url,
                             "model": "m", "batch_size": batch_size, "concurrency": 2},
                            pd.DataFrame(), {})
    requests = [Request(f"i{k}", f"source {k}", [{"role": "user", "content": f"source {k}"}])
                for k in range(n)]
    engine = Engine(backend, tmp_path / "cache", requests, who="test", run_id="r1")
    cache = engine.cache  # the engine's own
    engine.prepare("given")
    statements = []
    cache._con().set_trace_callback(statements.append)
    synced = [time.monotonic() for answer in engine.send() if answer is SYNC]
    commits = sum(s.strip().upper() == "COMMIT" for s in statements)
    durable = sum("synchronous=FULL" in s for s in statements)
    return commits, durable, len(synced), cache


def test_one_commit_a_batch_and_syncs_at_most_once_a_second(tmp_path, monkeypatch):
    """Each batch's answers and the release of their claims are one commit; the caller's
    copy (the partial file's fsync) and a durable commit come at most every SYNC_EVERY
    seconds and after the last batch."""
    with ChatServer(keep_alive=True) as server:
        commits, durable, synced, cache = commits_and_syncs(tmp_path, server, monkeypatch,
                                                            sync_every=60.0)
        batches = N // 4
        # the claim, one a batch, the release of what is left (before: three a batch)
        assert batches <= commits <= batches + 2, commits
        assert synced == 1 and durable == 1  # the last batch only, in a run under 60 s
        assert len(cache) == N
        commits, durable, synced, _ = commits_and_syncs(tmp_path / "again", server,
                                                        monkeypatch, sync_every=0.0)
        assert synced == batches and durable == batches
    with cache._connect() as con:
        assert con.execute("SELECT COUNT(*) FROM inflight").fetchone()[0] == 0


def test_the_cache_is_one_wal_connection_on_a_local_disk(tmp_path, monkeypatch):
    cache = RequestCache(tmp_path / "a")
    assert cache.journal == "wal"
    assert cache._con() is cache._con()  # one connection for the job
    with sqlite3.connect(cache.path) as con:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    monkeypatch.setenv("GENDERMT_CACHE_JOURNAL", "delete")
    other = RequestCache(tmp_path / "b")
    assert other.journal == "delete"
    with sqlite3.connect(other.path) as con:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "delete"


def test_a_network_filesystem_keeps_the_rollback_journal(tmp_path, monkeypatch):
    """WAL needs every process on one host: on NFS (and other network filesystems) the
    cache keeps SQLite's rollback journal."""
    mountinfo = tmp_path / "mountinfo"
    mountinfo.write_text(
        "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
        f"40 22 0:50 / {tmp_path}/shared rw,relatime shared:9 - nfs4 server:/export rw\n")
    (tmp_path / "shared" / "cache").mkdir(parents=True)
    assert _filesystem_of(tmp_path / "shared" / "cache", mountinfo) == "nfs4"
    assert _filesystem_of(tmp_path / "elsewhere", mountinfo) == "ext4"
    monkeypatch.setattr("gendermt.translation.cache.MOUNTINFO", mountinfo)
    monkeypatch.delenv("GENDERMT_CACHE_JOURNAL", raising=False)
    assert journal_mode(tmp_path / "shared" / "cache") == "delete"
    assert journal_mode(tmp_path / "elsewhere") == "wal"


def _put_in_child(cache):
    cache.put_many({"from-child": "an answer"}, "test")


def test_a_forked_child_opens_its_own_connection(tmp_path):
    cache = RequestCache(tmp_path)
    cache.put_many({"from-parent": "an answer"}, "test")
    child = multiprocessing.get_context("fork").Process(target=_put_in_child, args=(cache,))
    child.start()
    child.join(30)
    assert child.exitcode == 0
    assert cache.get_many(["from-parent", "from-child"]) == {"from-parent": "an answer",
                                                             "from-child": "an answer"}
