"""openai-compatible against a loopback chat-completions server that misbehaves on demand;
the request cache."""

import json
import multiprocessing

import pytest

from gendermt.core.backends import check_system
from gendermt.core.errors import GenderMTError
from gendermt.data.io import logging_to, read_jsonl, write_jsonl
from gendermt.translation.cache import RequestCache
from gendermt.translation.runner import translate_file

from ..chat_server import ChatServer

N = 12


def prompt(source, prompt_name="baseline"):
    return [{"role": "system", "content": f"You translate ({prompt_name})."},
            {"role": "user", "content": f"Translate into French: {source}"}]


@pytest.fixture
def stage(tmp_path, sample_data):
    rows = sample_data.drop_duplicates("source").head(N)
    data = tmp_path / "data.parquet"
    rows.to_parquet(data)

    def inputs(name="baseline", system_prompt=None):
        path = tmp_path / f"inputs-{name}.jsonl"
        write_jsonl(path, ({"item_id": r.item_id, "prompt": name, "source": r.source,
                            "messages": prompt(r.source, system_prompt or name)}
                           for r in rows.itertuples()))
        return path

    def run(settings, name="baseline", system_prompt=None, out_dir="t", cache=True):
        out = tmp_path / out_dir / f"{name}.jsonl"
        with logging_to(tmp_path / out_dir / f"{name}.log"):
            translate_file(inputs(name, system_prompt), data, "api", settings, out,
                           out.with_suffix(".meta.json"), ["strip_quotes"],
                           cache_dir=tmp_path / "cache" if cache else None)
        return read_jsonl(out), json.loads(out.with_suffix(".meta.json").read_text())

    run.rows = rows
    return run


def settings_for(server, **extra):
    return {"backend": "openai-compatible", "base_url": server.url, "model": "tiny-chat",
            "temperature": 0, "max_tokens": 64, "timeout": 1.0, "max_retries": 4,
            "backoff": 0.01, "concurrency": 3, "batch_size": 5, **extra}


def test_settings_are_checked():
    check_system({"backend": "openai-compatible", "base_url": "https://api.openai.com/v1",
                  "model": "gpt-4", "api_key_env": "OPENAI_API_KEY", "temperature": 0,
                  "max_tokens": 512, "concurrency": 4, "timeout": 60, "max_retries": 5})
    with pytest.raises(GenderMTError, match="base_url must start with http"):
        check_system({"backend": "openai-compatible", "base_url": "api.openai.com",
                      "model": "gpt-4"})
    with pytest.raises(GenderMTError, match=r"needs \['base_url'\]"):
        check_system({"backend": "openai-compatible", "model": "gpt-4"})


def test_a_misbehaving_server_still_gives_every_item_once(stage):
    sources = list(stage.rows["source"])
    user = [f"Translate into French: {s}" for s in sources]
    plan = {user[0]: ["429", "500"], user[1]: ["slow"], user[2]: ["malformed"],
            user[3]: ["empty", "500", "429"]}
    with ChatServer(plan, slow_seconds=2.0) as server:
        records, meta = stage(settings_for(server))
    assert [r["item_id"] for r in records] == list(stage.rows["item_id"])
    assert [r["hypothesis"] for r in records] == [f"FR: {u}" for u in user]
    assert sorted(server.answered) == sorted(user)  # each answered once
    assert len(server.requests) == N + 2 + 1 + 1 + 3
    assert 1 < server.max_in_flight <= 3  # bounded concurrency
    assert meta["output_tokens"] == sum(len(u.split()) + 1 for u in user)
    assert server.requests[0]["temperature"] == 0 and server.requests[0]["max_tokens"] == 64


def test_failures_that_never_stop_end_with_a_clear_error(stage, tmp_path):
    with ChatServer(always="500") as server, \
            pytest.raises(GenderMTError, match=r"tiny-chat at http://127\.0\.0\.1:\d+/v1/chat/"
                          r"completions: item \S+ failed after 3 attempts; last error: HTTP 500"):
        stage(settings_for(server, max_retries=2, concurrency=1))
    assert not (tmp_path / "t" / "baseline.jsonl").exists()
    with ChatServer(always="slow", slow_seconds=1.0) as server, \
            pytest.raises(GenderMTError, match="failed after 2 attempts; last error: no answer "
                                               "within 0.2 s"):
        stage(settings_for(server, max_retries=1, concurrency=1, timeout=0.2))


def test_the_api_key_is_sent_but_never_written(stage, tmp_path, monkeypatch):
    secret = "sk-test-0123456789abcdef"
    with ChatServer() as server:
        with pytest.raises(GenderMTError, match="GENDERMT_TEST_KEY .*is not set"):
            stage(settings_for(server, api_key_env="GENDERMT_TEST_KEY"))
        monkeypatch.setenv("GENDERMT_TEST_KEY", secret)
        stage(settings_for(server, api_key_env="GENDERMT_TEST_KEY"))
    assert server.auth == {f"Bearer {secret}"}
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert any(p.suffix == ".sqlite" for p in written) and any(p.suffix == ".log"
                                                               for p in written)
    for path in written:
        assert secret.encode() not in path.read_bytes(), path


def test_identical_requests_are_not_sent_twice(stage):
    with ChatServer() as server:
        first, meta = stage(settings_for(server))
        assert len(server.requests) == N and meta["requests_sent"] == N
        # a rerun from scratch, another benchmark with the same requests, and a setting
        # that changes how, not what, is asked: nothing is sent
        again, meta = stage(settings_for(server, concurrency=1, timeout=30), out_dir="rerun")
        assert [r["raw"] for r in again] == [r["raw"] for r in first]
        assert meta["cached_items"] == N and meta["requests_sent"] == 0
        assert len(server.requests) == N
        # another prompt whose rendered request is the same is served from the cache too
        _, meta = stage(settings_for(server), name="moral", system_prompt="baseline")
        assert meta["cached_items"] == N and len(server.requests) == N
        # another prompt text, decoding setting or model is a new request
        stage(settings_for(server), name="moral")
        assert len(server.requests) == 2 * N
        stage(settings_for(server, temperature=0.7), out_dir="hot")
        stage(settings_for(server, model="other-model"), out_dir="other")
        assert len(server.requests) == 4 * N
        # without a cache, everything is sent again
        stage(settings_for(server), out_dir="nocache", cache=False)
        assert len(server.requests) == 5 * N


def _writer(directory, worker):
    cache = RequestCache(directory, timeout=30)
    for batch in range(20):
        cache.put_many({f"{worker}-{batch}-{i}": f"out {worker} {batch} {i}"
                        for i in range(10)}, "test")


def test_the_cache_takes_concurrent_jobs(tmp_path):
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_writer, args=(tmp_path, w)) for w in range(3)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    cache = RequestCache(tmp_path)
    assert len(cache) == 600
    assert cache.get_many(["2-19-9", "nope"]) == {"2-19-9": "out 2 19 9"}
    assert RequestCache(None).get_many(["x"]) == {} and len(RequestCache(None)) == 0
