"""Damaged stores (issue 31 item 11): a damaged request cache stops the job (and the workflow
at start-up) naming the file, instead of every later run paying again; a damaged score store
is an error naming its file, not a raw sqlite traceback; a changed byte in a cached answer or
a stored score is not served (each value has a checksum)."""

import json
import sqlite3

import pytest

from gendermt.core.errors import GenderMTError
from gendermt.data.io import read_jsonl, write_jsonl
from gendermt.scoring.score_store import ScoreStore, score_through_store
from gendermt.translation.cache import check_file
from gendermt.translation.runner import translate_file

from ..chat_server import ChatServer


@pytest.fixture
def stage(tmp_path, sample_data):
    rows = sample_data.drop_duplicates("source").head(4)
    data = tmp_path / "data.parquet"
    rows.to_parquet(data)
    inputs = tmp_path / "inputs.jsonl"
    write_jsonl(inputs, ({"item_id": r.item_id, "prompt": "baseline", "source": r.source,
                          "messages": [{"role": "user", "content": r.source}]}
                         for r in rows.itertuples()))

    def run(server, out_dir="t"):
        out = tmp_path / out_dir / "baseline.jsonl"
        translate_file(inputs, data, "api", {"backend": "openai-compatible",
                                             "base_url": server.url, "model": "m",
                                             "max_retries": 0}, out,
                       out.with_suffix(".meta.json"), cache_dir=tmp_path / "cache")
        return read_jsonl(out), json.loads(out.with_suffix(".meta.json").read_text())

    return run


def test_a_damaged_request_cache_stops_the_job_naming_it(stage, tmp_path):
    (tmp_path / "cache").mkdir()
    path = tmp_path / "cache" / "requests.sqlite"
    path.write_bytes(b"this is not an SQLite file" * 100)
    with ChatServer() as server:
        with pytest.raises(GenderMTError, match=rf"request cache {path} is damaged"):
            stage(server)
        assert not server.requests  # nothing paid for
    with pytest.raises(GenderMTError, match="mv .*requests.sqlite.damaged"):
        check_file(tmp_path / "cache")
    check_file(tmp_path / "absent")  # no cache yet: nothing to check


def test_a_changed_byte_in_a_cached_answer_is_not_served(stage, tmp_path):
    with ChatServer() as server:
        first, _ = stage(server)
        with sqlite3.connect(tmp_path / "cache" / "requests.sqlite") as con:
            con.execute("UPDATE outputs SET raw = 'FR: tampered' WHERE rowid = 1")
        again, meta = stage(server, "again")
        assert meta["requests_sent"] == 1 and len(server.requests) == 5
    assert [r["raw"] for r in again] == [r["raw"] for r in first]
    assert "tampered" not in json.dumps(again)


def test_a_damaged_score_store_is_an_error_naming_it(tmp_path):
    (tmp_path / "scores.sqlite").write_bytes(b"garbage" * 500)
    with pytest.raises(GenderMTError, match=rf"score store {tmp_path / 'scores.sqlite'}"):
        ScoreStore(tmp_path)


def test_a_changed_stored_score_is_scored_again(tmp_path):
    store = ScoreStore(tmp_path)
    segments = [("a", "b", "c"), ("d", "e", "f")]
    scores, computed = score_through_store(store, "m", segments, lambda s: [0.5] * len(s))
    assert computed == 2
    with sqlite3.connect(tmp_path / "scores.sqlite") as con:
        con.execute("UPDATE scores SET score = 0.9 WHERE rowid = 1")
    scores, computed = score_through_store(store, "m", segments, lambda s: [0.5] * len(s))
    assert computed == 1 and scores == [0.5, 0.5]
