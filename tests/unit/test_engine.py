"""The one engine every model call goes through (translation, the GAMBIT judge, the ConGA
annotator): identical requests sent once, the order a parameter, each batch cached as it
returns, a backend's wrong number of answers an error, a failed item keeping its batch's
other answers."""

from typing import ClassVar

import pandas as pd
import pytest

from gendermt.data.io import read_jsonl, write_jsonl
from gendermt.translation.backends import BACKENDS, Backend, Request
from gendermt.translation.backends.base import ItemFailed
from gendermt.translation.cache import RequestCache
from gendermt.translation.engine import Engine, ask, request_length
from gendermt.translation.runner import translate_file


class Echo(Backend):
    """Answers ``echo: <source>``; records every batch it is sent. ``fail`` names sources
    that fail for good; ``extra`` adds an answer nobody asked for."""

    name: ClassVar[str] = "echo"
    batches: ClassVar[list[list[str]]] = []
    fail: ClassVar[set[str]] = set()
    extra: ClassVar[bool] = False

    def translate_each(self, batch):
        Echo.batches.append([r.source for r in batch])
        for i, r in enumerate(batch):
            yield i, (ItemFailed(r.item_id, f"item {r.item_id} failed") if r.source in Echo.fail
                      else f"echo: {r.source}")
        if Echo.extra:
            yield len(batch), "one too many"

    def translate(self, batch):
        return [out for _, out in self.translate_each(batch)]


@pytest.fixture
def echo(monkeypatch):
    monkeypatch.setitem(BACKENDS, "echo", Echo)
    monkeypatch.setattr(Echo, "batches", [])
    monkeypatch.setattr(Echo, "fail", set())
    monkeypatch.setattr(Echo, "extra", False)

    def make(batch_size=2):
        return Echo({"backend": "echo", "batch_size": batch_size}, pd.DataFrame())
    return make


def chat(item, text):
    return Request(item, text, [{"role": "user", "content": text}], "en", "fr")


SOURCES = ["a", "bbbb", "a", "cc", "bbbb", "ddd", "a"]


def test_identical_requests_are_sent_once_and_answered_for_every_item(echo, tmp_path):
    requests = [chat(f"i{n}", s) for n, s in enumerate(SOURCES)]
    cache = RequestCache(tmp_path / "cache")
    answers, sent, cached = ask(echo(), cache, requests, "test")
    assert answers == {r.item_id: f"echo: {r.source}" for r in requests}
    sent_sources = [s for batch in Echo.batches for s in batch]
    assert sorted(sent_sources) == ["a", "bbbb", "cc", "ddd"] and (sent, cached) == (4, 0)
    # given order: first occurrences as listed, batches of two
    assert Echo.batches == [["a", "bbbb"], ["cc", "ddd"]]
    again, sent, cached = ask(echo(), cache, requests, "test")
    assert again == answers and (sent, cached) == (0, 4) and len(Echo.batches) == 2


def test_the_order_is_a_parameter(echo, tmp_path):
    requests = [chat(f"i{n}", s) for n, s in enumerate(SOURCES)]
    engine = Engine(echo(), RequestCache(None), requests, who="test")
    longest = [r.source for r in engine.plan((), "longest-first")]
    assert longest == ["bbbb", "ddd", "cc", "a"]
    assert [request_length(r) for r in engine.to_send] == sorted(
        (request_length(r) for r in engine.to_send), reverse=True)
    assert [r.source for r in engine.plan((), "given")] == ["a", "bbbb", "cc", "ddd"]
    with pytest.raises(ValueError, match="unknown order"):
        engine.plan((), "shortest-first")


def test_translation_batches_longest_first_and_judges_in_the_order_given(echo, tmp_path):
    """The same requests, two callers: translate_file sorts by length, ask() does not."""
    data = tmp_path / "data.parquet"
    pd.DataFrame({"item_id": [f"i{n}" for n in range(len(SOURCES))], "source": SOURCES,
                  "reference": SOURCES}).to_parquet(data)
    inputs = tmp_path / "inputs.jsonl"
    write_jsonl(inputs, ({"item_id": f"i{n}", "prompt": "p", "source": s,
                          "messages": [{"role": "user", "content": s}], "src_lang": "en",
                          "tgt_lang": "fr"} for n, s in enumerate(SOURCES)))
    out = tmp_path / "t" / "p.jsonl"
    translate_file(inputs, data, "echo", {"backend": "echo", "batch_size": 2}, out,
                   tmp_path / "t" / "p.meta.json", cache_dir=tmp_path / "cache")
    assert Echo.batches == [["bbbb", "ddd"], ["cc", "a"]]
    assert [r["raw"] for r in read_jsonl(out)] == [f"echo: {s}" for s in SOURCES]
    Echo.batches.clear()
    # the judge's path shares the translation's cache entries (the same request digests)
    answers, sent, cached = ask(echo(), RequestCache(tmp_path / "cache"),
                                [chat(f"i{n}", s) for n, s in enumerate(SOURCES)], "test")
    assert (sent, cached) == (0, 4) and not Echo.batches


def test_a_backend_giving_the_wrong_number_of_answers_is_an_error(echo, tmp_path):
    Echo.extra = True
    cache = RequestCache(tmp_path / "cache")
    with pytest.raises(RuntimeError, match="backend echo returned 3 answers for 2 requests"):
        ask(echo(), cache, [chat("x", "x"), chat("y", "y")], "test")
    assert len(cache) == 0  # answers that cannot be matched to requests are not kept


def test_a_failed_item_keeps_its_batchs_answers_and_the_rerun_asks_only_for_it(echo,
                                                                                tmp_path):
    requests = [chat(f"i{n}", s) for n, s in enumerate(["p", "q", "r", "s", "t"])]
    cache = RequestCache(tmp_path / "cache")
    Echo.fail = {"s"}
    with pytest.raises(ItemFailed, match="item i3 failed"):
        ask(echo(batch_size=2), cache, requests, "test")
    assert Echo.batches == [["p", "q"], ["r", "s"]]  # stopped after the failed batch
    assert len(cache) == 3  # p, q and r (s's batch-mate) are kept
    Echo.fail, Echo.batches = set(), []
    answers, sent, cached = ask(echo(batch_size=2), cache, requests, "test")
    assert Echo.batches == [["s", "t"]] and (sent, cached) == (2, 3)
    assert answers["i3"] == "echo: s"


def test_every_caller_of_the_engine_is_fingerprinted_with_it():
    """Editing the engine reruns translation, the judge's and the annotator's jobs."""
    from gendermt.workflow.import_graph import modules_run_by

    for stage in ("gendermt.translation.runner", "gendermt.benchmarks.gambit.evaluate",
                  "gendermt.benchmarks.gambit.validation",
                  "gendermt.benchmarks.conga.annotations"):
        assert "gendermt.translation.engine" in modules_run_by(stage), stage
