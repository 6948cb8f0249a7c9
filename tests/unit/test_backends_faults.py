"""openai-compatible against tests/fault_server.py: every transport fault is retried within
the bound and then named; nothing that failed validation is cached; answers are kept as they
arrive; the key never leaks; the cache key is the model and the request as sent."""

import json
import sqlite3
import time

import pytest

from gendermt.data.io import logging_to, read_jsonl, write_jsonl
from gendermt.translation.backends.base import ItemFailed
from gendermt.translation.cache import RequestCache
from gendermt.translation.runner import translate_file

from ..fault_server import FaultServer

N = 6


@pytest.fixture
def stage(tmp_path, sample_data):
    rows = sample_data.drop_duplicates("source").head(N)
    data = tmp_path / "data.parquet"
    rows.to_parquet(data)
    inputs = tmp_path / "inputs.jsonl"
    write_jsonl(inputs, ({"item_id": r.item_id, "prompt": "baseline", "source": r.source,
                          "messages": [{"role": "user", "content": r.source}]}
                         for r in rows.itertuples()))

    def run(settings, out_dir="t", cache=True):
        out = tmp_path / out_dir / "baseline.jsonl"
        with logging_to(tmp_path / out_dir / "baseline.log"):
            translate_file(inputs, data, "api", settings, out, out.with_suffix(".meta.json"),
                           [], cache_dir=tmp_path / "cache" if cache else None)
        return read_jsonl(out), json.loads(out.with_suffix(".meta.json").read_text())

    run.rows = rows
    run.sources = list(rows["source"])
    run.out = tmp_path / "t" / "baseline.jsonl"
    run.log = tmp_path / "t" / "baseline.log"
    return run


def settings_for(server, **extra):
    """Settings for a system on ``server``; each test's servers serve one model (a
    restarted FaultServer listens on another port): ``cache_identity`` says so, unless a
    test passes ``cache_identity=None`` (the server's own address)."""
    settings = {"backend": "openai-compatible", "base_url": server.url, "model": "tiny-chat",
                "timeout": 2.0, "max_retries": 3, "backoff": 0.01, "concurrency": 2,
                "batch_size": N, "cache_identity": "fault-server", **extra}
    return {k: v for k, v in settings.items() if v is not None}


@pytest.mark.parametrize("fault", ["drop", "reset", "500@0", "503@date", "408", "malformed"])
def test_every_transport_fault_is_retried(stage, fault):
    """Item 1: a connection dropped mid-body (Content-Length N, half the body), reset before
    the status line, ... — retried, and every item answered once."""
    plan = {stage.sources[0]: [fault, fault], stage.sources[3]: [fault]}
    with FaultServer(plan) as server:
        records, _ = stage(settings_for(server))
    assert [r["raw"] for r in records] == [f"FR: {s}" for s in stage.sources]
    assert len(server.requests) == N + 3


@pytest.mark.parametrize("fault, named", [("drop", "IncompleteRead"),
                                          ("reset", "RemoteDisconnected")])
def test_a_fault_that_never_stops_names_the_item(stage, fault, named):
    item = stage.rows["item_id"].iloc[2]
    with FaultServer({stage.sources[2]: [fault] * 10}) as server, \
            pytest.raises(ItemFailed, match=rf"item {item} failed after 3 attempts; last "
                                            rf"error: connection failed: {named}") as err:
        stage(settings_for(server, max_retries=2))
    assert err.value.item_id == item
    # the batch's other answers are kept for the rerun (item 14)
    kept = read_jsonl(stage.out.with_name("baseline.jsonl.partial"))
    assert len(kept) == N - 1 and item not in {r["item_id"] for r in kept}


@pytest.mark.parametrize("fault", ["empty-text", "blank", "null"])
def test_empty_answers_are_failures_never_cached(stage, tmp_path, fault):
    """Item 2: an empty or whitespace-only answer is retried, then named, and never cached:
    a rerun against a healthy server asks again."""
    with FaultServer({stage.sources[1]: [fault] * 10}) as server, \
            pytest.raises(ItemFailed, match=r"failed after 2 attempts; last error: (empty "
                                            r"answer|malformed answer)"):
        stage(settings_for(server, max_retries=1))
    assert all(e.strip() for e in _cached_raws(tmp_path / "cache"))
    assert len(_cached_raws(tmp_path / "cache")) == N - 1
    stage.out.with_name("baseline.jsonl.partial").unlink()
    with FaultServer() as server:
        records, meta = stage(settings_for(server))
    assert meta["requests_sent"] == 1 and meta["cached_items"] == N - 1
    assert records[1]["raw"] == f"FR: {stage.sources[1]}"


def _cached_raws(directory):
    with sqlite3.connect(directory / "requests.sqlite") as con:
        return [raw for (raw,) in con.execute("SELECT raw FROM outputs")]


def test_cache_entries_can_be_invalidated(stage, tmp_path, capsys):
    """Item 2: a cached answer can be dropped (function and `gendermt cache forget`); blank
    entries left by older versions are not served."""
    from gendermt.cli import main

    with FaultServer() as server:
        stage(settings_for(server))
        cache = RequestCache(tmp_path / "cache")
        assert len(cache) == N
        # an old version cached a blank answer: it is no answer, and `--blank` drops it
        with sqlite3.connect(cache.path) as con:
            con.execute("UPDATE outputs SET raw = ' \n' WHERE raw = ?",
                        (f"FR: {stage.sources[0]}",))
        records, meta = stage(settings_for(server), out_dir="again")
        assert meta["requests_sent"] == 1 and records[0]["raw"] == f"FR: {stage.sources[0]}"
        with sqlite3.connect(cache.path) as con:
            con.execute("INSERT INTO outputs (digest, raw, backend, created) VALUES "
                        "('x', '', 'b', 0)")
        assert main(["cache", "forget", "--dir", str(tmp_path / "cache"), "--blank"]) == 0
        assert json.loads(capsys.readouterr().out) == {"forgotten": 1, "left": N}
        # the entries of chosen items of a translation file
        item = stage.rows["item_id"].iloc[4]
        assert main(["cache", "forget", "--dir", str(tmp_path / "cache"), "--translations",
                     str(tmp_path / "again" / "baseline.jsonl"), "--item", item]) == 0
        assert json.loads(capsys.readouterr().out) == {"forgotten": 1, "left": N - 1}
        _, meta = stage(settings_for(server), out_dir="third")
        assert meta["requests_sent"] == 1


def test_the_timeout_is_a_deadline_for_the_whole_request(stage):
    """Item 3: a server trickling bytes (each within the socket timeout) cannot hold the job
    beyond timeout × attempts."""
    with FaultServer(always="trickle", trickle_interval=0.05) as server:
        t0 = time.monotonic()
        with pytest.raises(ItemFailed, match=r"failed after 2 attempts; last error: no "
                                             r"answer within 0.5 s"):
            stage(settings_for(server, timeout=0.5, max_retries=1, concurrency=N))
        elapsed = time.monotonic() - t0
    assert elapsed < 4, elapsed  # a whole trickled answer takes > 10 s


def test_retry_after_seconds_dates_and_cap(stage, monkeypatch):
    """Item 13: Retry-After as non-integer seconds and as an HTTP date is honoured, and a
    huge one is capped (retry_after_max)."""
    from gendermt.translation.backends import openai_api

    slept = []
    monkeypatch.setattr(openai_api, "_wait", slept.append)
    s = stage.sources
    plan = {s[0]: ["429@1.5"], s[1]: ["503@3600"], s[2]: ["429@date+30"], s[3]: ["429@junk"]}
    with FaultServer(plan) as server:
        stage(settings_for(server, concurrency=1, retry_after_max=40, backoff=0.001))
    assert len(slept) == 4
    assert 1.5 in slept and 40 in slept
    assert any(20 < d < 31 for d in slept)   # the date, 30 s ahead (1 s resolution)
    assert any(d <= 0.001 for d in slept)     # unparsable: the backoff
    assert openai_api.parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0  # past
    assert openai_api.parse_retry_after("nan") is None


def test_the_key_is_redacted_from_every_message(stage, monkeypatch):
    """Item 15: a server that echoes the Authorization header in its error bodies (retried
    500s in the log, a final 401 in the raised error) never gets the key into either."""
    secret = "sk-fault-0123456789abcdef"
    monkeypatch.setenv("GENDERMT_FAULT_KEY", secret)
    plan = {stage.sources[0]: ["echo-500"], stage.sources[2]: ["echo-401"]}
    with FaultServer(plan) as server, pytest.raises(ItemFailed) as err:
        stage(settings_for(server, api_key_env="GENDERMT_FAULT_KEY"))
    assert server.auth == {f"Bearer {secret}"}
    message = str(err.value)
    assert "HTTP 401" in message and "invalid credentials" in message
    assert secret not in message and "[redacted]" in message
    log = stage.log.read_text()
    assert "HTTP 500" in log and "[redacted]" in log and secret not in log


def test_the_key_is_redacted_before_a_body_is_cut_and_in_pieces(stage, monkeypatch, tmp_path):
    """Issue 31 item 2: a key straddling the 300-character cut of an error body, a server
    echoing only the key's first 12 characters, and a key echoed inside a normal answer
    (item 11) leave no piece of the key of 8 characters or more in the error, the log, the
    outputs or the cache."""
    secret = "sk-fault-abcdefghijklmnopqrst"  # 28 characters
    monkeypatch.setenv("GENDERMT_FAULT_KEY", secret)
    plan = {stage.sources[0]: ["part-500@12"], stage.sources[1]: ["echo-answer"],
            stage.sources[2]: ["cut-401@20"]}
    with FaultServer(plan) as server, pytest.raises(ItemFailed) as err:
        stage(settings_for(server, api_key_env="GENDERMT_FAULT_KEY", concurrency=1))
    pieces = {secret[i:i + 8] for i in range(len(secret) - 7)}
    message = str(err.value)
    assert "HTTP 401" in message and "[redacted]" in message
    written = "\n".join([message, stage.log.read_text()] + [
        p.read_bytes().decode(errors="replace") for p in tmp_path.rglob("*") if p.is_file()])
    assert "overloaded (key [redacted]" in written
    leaked = sorted(p for p in pieces if p in written)
    assert not leaked, leaked
    with FaultServer() as server:  # the rerun: the echoed answer was kept, redacted
        records, _ = stage(settings_for(server, api_key_env="GENDERMT_FAULT_KEY"))
    assert records[1]["raw"] == f"FR: {stage.sources[1]} (Bearer [redacted])"


def test_redaction_of_pieces_of_a_key():
    from gendermt.translation.backends.openai_api import redact_secret

    key = "sk-0123456789abcdef"
    assert redact_secret(f"a {key} b", key) == "a [redacted] b"
    assert redact_secret("a sk-01234567 b 89abcdef", key) == "a [redacted] b [redacted]"
    assert redact_secret("a sk-0123 b", key) == "a sk-0123 b"  # 7 characters: kept
    assert redact_secret("text", None) == "text"


def test_answers_are_kept_as_they_arrive_and_cache_failures_are_warnings(stage, monkeypatch):
    """Item 14: a permanently failing item does not discard its batch's other answers (the
    rerun asks only for it); a cache that cannot be written is a warning, not an abort."""
    with FaultServer({stage.sources[4]: ["echo-401"]}) as server:
        with pytest.raises(ItemFailed, match="HTTP 401"):
            stage(settings_for(server, batch_size=N))
        assert len(read_jsonl(stage.out.with_name("baseline.jsonl.partial"))) == N - 1

        def broken(*args, **kwargs):
            raise sqlite3.OperationalError("database or disk is full")

        monkeypatch.setattr(RequestCache, "put_many", broken)
        before = len(server.requests)
        records, meta = stage(settings_for(server))
        assert len(server.requests) == before + 1 and meta["resumed_items"] == N - 1
    assert [r["raw"] for r in records] == [f"FR: {s}" for s in stage.sources]
    assert "could not store 1 outputs in the request cache" in stage.log.read_text()


def test_the_cache_key_is_the_server_the_model_and_the_request_as_sent(stage, monkeypatch):
    """Issue 31 item 1: another server (same `model:`) is asked again, never served the first
    server's answers; a system that declares the first server's identity (`cache_identity`:
    a local server restarted on another port) reuses them; a change of how the backend
    builds its request body is a new request."""
    from gendermt.translation.backends.openai_api import OpenAICompatible

    with FaultServer() as server:
        _, first = stage(settings_for(server, cache_identity=None))
        assert first["requests_sent"] == N
    with FaultServer() as other_port:
        records, meta = stage(settings_for(other_port, cache_identity=None), out_dir="other")
        assert meta["requests_sent"] == N and len(other_port.requests) == N
        assert meta["backend"]["server"] == other_port.url
    with FaultServer() as restarted:
        _, meta = stage(settings_for(restarted, cache_identity=server.url), out_dir="moved")
        assert meta["requests_sent"] == 0 and not restarted.requests
        # a name both systems declare works the same way
        _, meta = stage(settings_for(restarted, cache_identity="my-llama"), out_dir="named")
        assert meta["requests_sent"] == N
        _, meta = stage(settings_for(server, cache_identity="my-llama"), out_dir="named2")
        assert meta["requests_sent"] == 0
        original = OpenAICompatible.payload
        monkeypatch.setattr(OpenAICompatible, "payload",
                            lambda self, r: {**original(self, r), "stream": False})
        before = len(restarted.requests)
        _, meta = stage(settings_for(restarted, cache_identity=server.url), out_dir="edited")
        assert meta["requests_sent"] == N and restarted.requests[before]["stream"] is False


def test_the_server_identity_is_normalised():
    from gendermt.translation.backends.openai_api import normalise_url, server_identity

    assert normalise_url("HTTP://LocalHost:80/v1/") == "http://localhost/v1"
    assert normalise_url("https://api.example.org:443/v1") == "https://api.example.org/v1"
    assert normalise_url("http://127.0.0.1:8000/v1") == "http://127.0.0.1:8000/v1"
    assert server_identity({"base_url": "http://a:1/v1", "cache_identity": "tgi-llama"}) \
        == "tgi-llama"
    assert server_identity({"base_url": "http://a:2/v1",
                            "cache_identity": "http://A:1/v1/"}) == "http://a:1/v1"


def test_answers_cached_before_the_server_joined_the_key(stage, tmp_path):
    """Migration: an entry under the old key (the body alone) is served only where the run
    that made it recorded this system's server; another server asks again."""
    import hashlib

    from gendermt.translation.backends.openai_api import OpenAICompatible

    with FaultServer() as server, FaultServer() as other:
        settings = settings_for(server, cache_identity=None)
        cache = RequestCache(tmp_path / "cache")
        backend = OpenAICompatible(settings, stage.rows)
        from gendermt.translation.backends import Request
        old = {}
        for r in stage.rows.itertuples():
            body = backend.payload(Request(r.item_id, r.source,
                                           [{"role": "user", "content": r.source}]))
            key = hashlib.sha256(json.dumps([{"backend": "openai-compatible"}, body],
                                            sort_keys=True).encode()).hexdigest()
            old[key] = f"old {r.source}"
        cache.put_many(old, "openai-compatible", run_id="r-old")
        cache.put_run("r-old", {"run_id": "r-old", "resolved": {"base_url": server.url}})
        _, meta = stage(settings_for(other, cache_identity=None), out_dir="other")
        assert meta["requests_sent"] == N  # not the first server's answers
        records, meta = stage(settings)
        assert meta["requests_sent"] == 0 and not server.requests
        assert [r["raw"] for r in records] == [f"old {s}" for s in stage.sources]
        # entries with no record of their server (a judge's): served only to a system that
        # declares its server's identity
        with sqlite3.connect(cache.path) as con:
            con.execute("DELETE FROM outputs WHERE run_id IS NOT 'r-old'")
            con.execute("UPDATE outputs SET run_id = NULL")
        before = len(other.requests)
        _, meta = stage(settings_for(other, cache_identity=None), out_dir="other2")
        assert meta["requests_sent"] == N and len(other.requests) == before + N
        with sqlite3.connect(cache.path) as con:  # only the old entries again
            con.execute("DELETE FROM outputs WHERE raw NOT LIKE 'old %'")
        records, meta = stage(settings_for(other, cache_identity="judge-model"),
                              out_dir="declared")
        assert meta["requests_sent"] == 0
        assert [r["raw"] for r in records] == [f"old {s}" for s in stage.sources]


def test_a_rerun_from_the_cache_keeps_the_first_runs_record(stage):
    """Issue 16: a rerun served from the cache does not overwrite how its outputs were made
    (items/s, resolved settings): the first run's record is kept, the rerun's added."""
    with FaultServer() as server:
        _, first = stage(settings_for(server))
        _, again = stage(settings_for(server), out_dir="rerun")
    assert first["items_per_second"] > 0 and len(first["runs"]) == 1
    made = first["runs"][0]
    assert made["requests_sent"] == N and made["items_here"] == N
    assert made["resolved"] == {"base_url": server.url}
    assert again["requests_sent"] == 0 and again["cached_items"] == N
    assert again["translated_this_run"] == 0
    assert again["items_per_second"] == made["items_per_second"]
    assert again["resolved"] == made["resolved"]
    assert [r["run_id"] for r in again["runs"]] == [made["run_id"]]


def test_answers_cached_under_the_old_key_are_still_served(stage, tmp_path):
    """Migration: entries stored before the key became the body as sent (the settings with
    base_url, and the request) are served while the body built now is the one built then."""
    from gendermt.translation.backends import Backend, Request

    with FaultServer() as server:
        settings = settings_for(server, temperature=0, max_tokens=32, cache_identity=None)
        identity = {"backend": "openai-compatible", **{
            k: v for k, v in sorted(settings.items())
            if k in ("base_url", "model", "temperature", "max_tokens")}}

        class Before(Backend):  # the key then: the identity and the request's fields
            name = "openai-compatible"

            def identity(self):
                return identity

            def translate(self, batch):
                raise AssertionError("never sent")

        before = Before({}, None)
        old = {before.request_digest(Request(r.item_id, r.source, [
            {"role": "user", "content": r.source}])): f"old {r.source}"
            for r in stage.rows.itertuples()}
        RequestCache(tmp_path / "cache").put_many(old, "openai-compatible")
        records, meta = stage(settings)
        assert meta["requests_sent"] == 0 and not server.requests
        assert [r["raw"] for r in records] == [f"old {s}" for s in stage.sources]
        # from now on under the current key; a system that declares this server's identity
        # reads them wherever the server listens now
        assert len(RequestCache(tmp_path / "cache")) == 2 * N
        _, meta = stage({**settings, "base_url": "http://127.0.0.1:9/v1",
                         "cache_identity": server.url}, out_dir="moved")
        assert meta["requests_sent"] == 0


def test_the_cache_never_stores_blank_outputs_and_forgets_on_demand(tmp_path):
    cache = RequestCache(tmp_path)
    assert cache.put_many({"a" * 64: "Bonjour", "b" * 64: "", "c" * 64: " \n\t"}, "x",
                          run_id="r1", seconds={"a" * 64: 0.5}) == 1
    assert cache.entries(["a" * 64, "b" * 64]) == {
        "a" * 64: {"raw": "Bonjour", "run_id": "r1", "seconds": 0.5, "finish": None}}
    cache.put_run("r1", {"run_id": "r1", "items_per_second": 3.0})
    assert cache.runs(["r1", "r2"]) == {"r1": {"run_id": "r1", "items_per_second": 3.0}}
    assert cache.forget(["a" * 16], prefix=True) == 1 and len(cache) == 0


def test_the_retry_time_of_an_item_is_bounded(stage):
    """Issue 31 item 10: however many retries and however long the backoff, an item gives up
    within its retry_budget, naming it; the budget has a ceiling."""
    from gendermt.core.backends import check_system
    from gendermt.core.errors import GenderMTError

    with FaultServer(always="500") as server:
        t0 = time.monotonic()
        with pytest.raises(ItemFailed, match=r"failed after \d+ attempts \(its retry_budget "
                                             r"of 1.5 s left no time for another"):
            stage(settings_for(server, max_retries=20, backoff=0.2, timeout=0.5,
                               retry_budget=1.5, concurrency=N))
        assert time.monotonic() - t0 < 6
    with pytest.raises(GenderMTError, match="retry_budget must be .* at most 86400"):
        check_system(settings_for(server, retry_budget=10 ** 6))


def test_an_answer_larger_than_its_token_budget_is_refused(stage, tmp_path):
    """Issue 31 item 11: a 5 MB answer to max_tokens 64 (50 MB in the report) is not read
    whole, kept or cached."""
    item = stage.rows["item_id"].iloc[1]
    with FaultServer({stage.sources[1]: ["huge@5"]}) as server, \
            pytest.raises(ItemFailed, match=rf"item {item}: an answer body over \d+ bytes "
                                            r"\(more than max_tokens 64 allows\)"):
        stage(settings_for(server, max_tokens=64, timeout=30))
    kept = read_jsonl(stage.out.with_name("baseline.jsonl.partial"))
    assert len(kept) == N - 1 and max(len(r["raw"]) for r in kept) < 1000
    assert max(map(len, _cached_raws(tmp_path / "cache"))) < 1000
