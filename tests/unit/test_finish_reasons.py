"""Why each output ended: backends report it, translate_file records it per item and counts
it in the metadata, and the per-run table counts truncations."""

import json

import pandas as pd
import pytest

from gendermt.analysis.finish import finish_counts
from gendermt.data.io import read_jsonl, write_jsonl
from gendermt.translation.backends import Request, build_backend
from gendermt.translation.runner import translate_file

from .. import tiny_models
from ..chat_server import ChatServer

HF_EXTRA = "needs the hf extra: pip install -e '.[hf]'"
pytest.importorskip("torch", reason=HF_EXTRA)


@pytest.fixture(autouse=True)
def hub_off(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


def chat(text):
    return [{"role": "user", "content": f"Translate into French: {text}"}]


REQUESTS = [Request(f"i{n}", t, chat(t)) for n, t in enumerate(["the nurse", "the doctor"])]


def test_hf_causal_says_length_when_cut_off_and_eos_when_it_ended(tmp_path):
    rambling = tiny_models.build_causal(tmp_path / "random")
    backend = build_backend({"backend": "hf-causal", "model": str(rambling),
                             "max_new_tokens": 4}, None)
    backend.translate(REQUESTS)
    assert backend.finish_reasons == ["length", "length"]
    ends = tiny_models.build_causal(tmp_path / "ends", ends_turn_at_once=True)
    backend = build_backend({"backend": "hf-causal", "model": str(ends),
                             "max_new_tokens": 4}, None)
    backend.translate(REQUESTS)
    assert backend.finish_reasons == ["eos", "eos"]


def test_openai_compatible_reads_finish_reason():
    def respond(body):
        text = body["messages"][-1]["content"]
        return ("l'infirmi", "length") if "nurse" in text else "le médecin"

    with ChatServer(responder=respond) as server:
        backend = build_backend({"backend": "openai-compatible", "base_url": server.url,
                                 "model": "m", "max_retries": 0}, None)
        backend.translate(REQUESTS)
    assert backend.finish_reasons == ["length", "stop"]


def test_translate_file_records_and_counts_finish_reasons(tmp_path, sample_data):
    data = tmp_path / "data.parquet"
    rows = sample_data.drop_duplicates("source").head(4)
    rows.to_parquet(data)
    inputs = tmp_path / "inputs.jsonl"
    write_jsonl(inputs, ({"item_id": r.item_id, "prompt": "baseline", "source": r.source,
                          "messages": chat(r.source)} for r in rows.itertuples()))
    model = tiny_models.build_causal(tmp_path / "random")
    out, meta = tmp_path / "t" / "m" / "baseline.jsonl", tmp_path / "t" / "m" / "baseline.meta.json"
    settings = {"backend": "hf-causal", "model": str(model), "max_new_tokens": 3}
    translate_file(inputs, data, "m", settings, out, meta, cache_dir=tmp_path / "cache",
                   threads=1)
    assert [r["finish_reason"] for r in read_jsonl(out)] == ["length"] * 4
    info = json.loads(meta.read_text())
    assert info["finish_reasons"] == {"length": 4} and info["truncated"] == 4
    assert info["resolved"]["threads"] == 1
    # an oracle does not generate: n/a
    out2 = tmp_path / "t" / "o" / "baseline.jsonl"
    translate_file(inputs, data, "o", {"backend": "reference-oracle", "reference": "ref_male"},
                   out2, out2.with_suffix(".meta.json"))
    table = finish_counts([{"system": "m", "prompt": "baseline", "path": out},
                           {"system": "o", "prompt": "baseline", "path": out2}]
                          ).set_index("system")
    assert table.loc["m", "length"] == 4 and table.loc["m", "truncated_share"] == 1.0
    assert table.loc["o", "n/a"] == 4 and table.loc["o", "truncated_share"] == 0.0
    # served from the cache, the text comes back with why it ended (issue 31 item 9), so
    # that finish_reasons.csv does not depend on cache hits
    out.unlink()
    translate_file(inputs, data, "m", settings, out, meta, cache_dir=tmp_path / "cache")
    assert [r["finish_reason"] for r in read_jsonl(out)] == ["length"] * 4
    assert json.loads(meta.read_text())["cached_items"] == 4
    # an entry stored before the reason was kept: said so
    import sqlite3
    with sqlite3.connect(tmp_path / "cache" / "requests.sqlite") as con:
        con.execute("UPDATE outputs SET finish = NULL")
    out.unlink()
    translate_file(inputs, data, "m", settings, out, meta, cache_dir=tmp_path / "cache")
    assert [r["finish_reason"] for r in read_jsonl(out)] == ["unknown"] * 4
    row = finish_counts([{"system": "m", "prompt": "baseline", "path": out}]).iloc[0]
    assert row["unknown"] == 4 and pd.isna(row["truncated_share"])  # not "0 cut off"


def test_an_api_answers_finish_reason_survives_the_cache(tmp_path, sample_data):
    data = tmp_path / "data.parquet"
    rows = sample_data.drop_duplicates("source").head(3)
    rows.to_parquet(data)
    inputs = tmp_path / "inputs.jsonl"
    write_jsonl(inputs, ({"item_id": r.item_id, "prompt": "baseline", "source": r.source,
                          "messages": chat(r.source)} for r in rows.itertuples()))
    out = tmp_path / "t" / "baseline.jsonl"

    def respond(body):
        return ("coupé", "length")

    with ChatServer(responder=respond) as server:
        settings = {"backend": "openai-compatible", "base_url": server.url, "model": "m",
                    "max_retries": 0}
        for _ in range(2):
            out.unlink(missing_ok=True)
            translate_file(inputs, data, "api", settings, out, out.with_suffix(".meta.json"),
                           cache_dir=tmp_path / "cache")
            assert [r["finish_reason"] for r in read_jsonl(out)] == ["length"] * 3
        assert len(server.requests) == 3
