"""Two runs at once sharing the request cache (issue 31 item 8): a request one process is
sending is not sent a second time by the other, which takes its answer from the cache; a
claim whose process is gone is taken over."""

import json
import multiprocessing
import os

from gendermt.data.io import read_jsonl, write_jsonl
from gendermt.translation.cache import RequestCache, owner_id
from gendermt.translation.runner import translate_file

from ..chat_server import ChatServer

N = 12


def _translate(inputs, data, url, out, cache_dir):
    translate_file(inputs, data, "api", {"backend": "openai-compatible", "base_url": url,
                                         "model": "m", "max_retries": 0, "concurrency": 2,
                                         "batch_size": 4},
                   out, out.with_suffix(".meta.json"), cache_dir=cache_dir)


def test_two_runs_at_once_send_each_request_once(tmp_path, sample_data):
    rows = sample_data.drop_duplicates("source").head(N)
    data = tmp_path / "data.parquet"
    rows.to_parquet(data)
    inputs = tmp_path / "inputs.jsonl"
    write_jsonl(inputs, ({"item_id": r.item_id, "prompt": "baseline", "source": r.source,
                          "messages": [{"role": "user", "content": r.source}]}
                         for r in rows.itertuples()))
    ctx = multiprocessing.get_context("fork")
    with ChatServer(delay=0.15) as server:
        outs = [tmp_path / f"run{i}" / "baseline.jsonl" for i in range(2)]
        procs = [ctx.Process(target=_translate, args=(inputs, data, server.url, out,
                                                      tmp_path / "cache")) for out in outs]
        for p in procs:
            p.start()
        for p in procs:
            p.join(120)
            assert p.exitcode == 0
    assert len(server.requests) == N, len(server.requests)  # 2 N before
    first, second = (read_jsonl(o) for o in outs)
    assert [r["raw"] for r in first] == [r["raw"] for r in second]
    metas = [json.loads(o.with_suffix(".meta.json").read_text()) for o in outs]
    assert sorted(m["requests_sent"] for m in metas) == [0, N] or \
        sum(m["requests_sent"] for m in metas) == N
    assert sum(m["cached_items"] for m in metas) == N
    assert not RequestCache(tmp_path / "cache").claim([], "x")  # nothing left claimed
    with RequestCache(tmp_path / "cache")._connect() as con:
        assert con.execute("SELECT COUNT(*) FROM inflight").fetchone()[0] == 0


def test_a_claim_of_a_process_that_is_gone_is_taken_over(tmp_path):
    cache = RequestCache(tmp_path)
    gone = multiprocessing.get_context("fork").Process(target=os._exit, args=(0,))
    gone.start()
    gone.join()
    dead = owner_id("dead").replace(f":{os.getpid()}:", f":{gone.pid}:")
    assert cache.claim(["a", "b"], dead) == {"a", "b"}
    assert cache.claim(["a", "b", "c"], owner_id("me")) == {"a", "b", "c"}
    # a live owner's claims are left to it, until released
    assert cache.claim(["a", "d"], owner_id("other")) == {"d"}
    cache.release(owner_id("me"))
    assert cache.claim(["a"], owner_id("other")) == {"a"}
