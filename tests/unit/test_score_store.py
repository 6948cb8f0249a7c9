"""The score store: COMET and BERTScore jobs score only the triples (pairs) not scored before,
so adding a system to a study costs its own new triples only. The COMET and BERTScore models
are fakes that count their calls (the real code paths run in the COMET environment:
tests/unit/test_comet.py)."""

from __future__ import annotations

import json
import math
import types

import pandas as pd
import pytest

from gendermt.data.io import write_jsonl
from gendermt.scoring import bertscore as bertscore_module
from gendermt.scoring import comet
from gendermt.scoring.score_store import (
    ScoreStore,
    score_store_dir,
    score_through_store,
    segment_key,
)


def test_store_round_trip_and_keys_keep_texts_apart(tmp_path):
    store = ScoreStore(tmp_path)
    a, b = segment_key("m", ["ab", "c"]), segment_key("m", ["a", "bc"])
    assert a != b and a != segment_key("m2", ["ab", "c"])
    store.put_many({a: 1.5, b: float("nan")}, "m")
    assert store.get_many([a, b, "other"]) == {a: 1.5}  # a NaN is never stored
    assert len(ScoreStore(tmp_path)) == 1  # on disk, for the next job
    empty = ScoreStore(None)
    empty.put_many({a: 1.0}, "m")
    assert empty.get_many([a]) == {} and len(empty) == 0


def test_only_missing_segments_are_scored_in_chunks_and_each_chunk_is_kept(tmp_path):
    store = ScoreStore(tmp_path)
    calls: list[list] = []

    def scorer(segments):
        calls.append(list(segments))
        if len(calls) == 3:
            raise RuntimeError("killed")
        return [float(len(s[0])) for s in segments]

    segments = [(f"s{i}" * (i + 1), "h", "r") for i in range(5)]
    with pytest.raises(RuntimeError, match="killed"):
        score_through_store(store, "m", segments, scorer, chunk=2)
    assert len(store) == 4  # the two chunks scored before the failure are kept
    calls.clear()
    scores, scored = score_through_store(store, "m", segments, lambda s: [0.0] * len(s),
                                         chunk=2)
    assert scored == 1
    assert scores[:4] == [float(len(s[0])) for s in segments[:4]] and scores[4] == 0.0
    # nothing missing: the scorer is not called at all
    assert score_through_store(store, "m", segments, None)[1] == 0


def test_store_folder_from_the_config():
    assert score_store_dir({}) == "results/cache"
    assert score_store_dir({"cache": {"dir": "c"}}) == "c"
    assert score_store_dir({"cache": {"dir": "c", "scores_dir": "s"}}) == "s"
    assert score_store_dir({"cache": {"dir": "c", "enabled": False}}) is None


class CountingComet:
    """Stands in for a loaded COMET model: a deterministic score per triple, every triple it
    is asked to score recorded."""

    def __init__(self, log: list):
        self.log = log

    def predict(self, samples, batch_size, gpus, progress_bar):
        self.log.extend((s["src"], s["mt"], s["ref"]) for s in samples)
        return types.SimpleNamespace(scores=[
            (sum(map(ord, s["src"] + s["mt"] + s["ref"])) % 97) / 97 for s in samples])


@pytest.fixture
def fake_comet(monkeypatch):
    scored: list = []
    loads: list = []
    revision = {"value": "hub:abc"}
    monkeypatch.setattr(comet, "_import_comet", lambda: types.SimpleNamespace(
        __version__="2.2.7"))
    monkeypatch.setattr(comet, "resolve_checkpoint",
                        lambda model, cache_dir=None: ("model.ckpt", revision["value"]))

    def load(module, ckpt, model):
        loads.append(model)
        return CountingComet(scored)

    monkeypatch.setattr(comet, "_load", load)
    return types.SimpleNamespace(scored=scored, loads=loads, revision=revision)


def study(tmp_path, systems: dict[str, list[str]]) -> list:
    data = pd.DataFrame({"item_id": [f"i{n}" for n in range(6)],
                         "source": [f"src {n % 4}" for n in range(6)],
                         "reference": [f"ref {n}" for n in range(6)]})
    data.to_parquet(tmp_path / "data.parquet", index=False)
    files = []
    for system, hyps in systems.items():
        for prompt in ("p1", "p2"):
            path = tmp_path / "translations" / system / f"{prompt}.jsonl"
            write_jsonl(path, ({"item_id": i, "hypothesis": h}
                               for i, h in zip(data["item_id"], hyps, strict=True)))
            files.append(path)
    return files


FOUR = {"copy": [f"src {n % 4}" for n in range(6)],
        "oracle": [f"ref {n}" for n in range(6)],
        "half": [f"ref {n}" if n < 3 else "x" for n in range(6)],
        "const": ["x"] * 6}
FIFTH = {"new": [f"ref {n}" if n % 2 else f"new {n}" for n in range(6)]}


def run_comet(tmp_path, files, store, name="comet"):
    comet.comet_benchmark(files, tmp_path / "data.parquet", tmp_path / f"{name}.parquet",
                          tmp_path / f"{name}.json", {"model": "Unbabel/wmt22-comet-da",
                                                      "gpus": 0}, store_dir=store)
    return (pd.read_parquet(tmp_path / f"{name}.parquet"),
            json.loads((tmp_path / f"{name}.json").read_text(encoding="utf-8")))


def test_adding_a_fifth_system_scores_only_its_new_triples(tmp_path, fake_comet):
    store = tmp_path / "store"
    four = study(tmp_path, FOUR)
    _, summary = run_comet(tmp_path, four, store)
    first = len(fake_comet.scored)
    assert first == summary["distinct_triples"] == summary["scored_this_run"]

    five = study(tmp_path, {**FOUR, **FIFTH})
    fake_comet.scored.clear()
    scores, summary = run_comet(tmp_path, five, store)
    data = pd.read_parquet(tmp_path / "data.parquet")
    def triples(hyps):
        return set(zip(data["source"], hyps, data["reference"], strict=True))

    new = triples(FIFTH["new"]) - set().union(*(triples(h) for h in FOUR.values()))
    assert len(new) == 3  # the fifth system's odd items repeat the oracle's triples
    assert set(fake_comet.scored) == new and len(fake_comet.scored) == 3
    assert summary["scored_this_run"] == 3
    assert summary["from_store"] == summary["distinct_triples"] - 3

    # the same scores as a run from scratch, without any store
    fake_comet.scored.clear()
    fresh, _ = run_comet(tmp_path, five, None, name="fresh")
    assert len(fake_comet.scored) == summary["distinct_triples"]
    pd.testing.assert_frame_equal(scores, fresh)

    # nothing new: the model is not even loaded
    fake_comet.loads.clear()
    fake_comet.scored.clear()
    run_comet(tmp_path, five, store)
    assert fake_comet.loads == [] and fake_comet.scored == []

    # another revision of the model is another metric: everything is scored again
    fake_comet.revision["value"] = "hub:def"
    run_comet(tmp_path, five, store)
    assert len(fake_comet.scored) == summary["distinct_triples"]


def test_bertscore_scores_only_new_pairs_and_idf_bypasses_the_store(tmp_path, monkeypatch):
    calls: list = []

    def fake(hyps, refs, model, **options):
        calls.extend(zip(hyps, refs, strict=True))
        return [math.fsum(map(ord, h + r)) % 89 for h, r in zip(hyps, refs, strict=True)], \
            "bertscore:fake_L1_no-idf|F1|scale:x100"

    monkeypatch.setattr(bertscore_module, "bertscore", fake)
    monkeypatch.setattr(bertscore_module, "bertscore_signature",
                        lambda settings: "bertscore:fake_L1_no-idf|F1|scale:x100")
    store = tmp_path / "store"
    settings = {"model": "bert-base-uncased", "num_layers": 1, "gpus": 0}

    def run(files, settings, name="bertscore"):
        bertscore_module.bertscore_benchmark(
            files, tmp_path / "data.parquet", tmp_path / f"{name}.parquet",
            tmp_path / f"{name}.json", settings, store_dir=store)
        return json.loads((tmp_path / f"{name}.json").read_text(encoding="utf-8"))

    run(study(tmp_path, FOUR), settings)
    calls.clear()
    summary = run(study(tmp_path, {**FOUR, **FIFTH}), settings)
    assert len(calls) == summary["scored_this_run"] == 3  # new 0, new 2, new 4
    assert {h for h, _ in calls} == {"new 0", "new 2", "new 4"}
    calls.clear()
    run(study(tmp_path, {**FOUR, **FIFTH}), settings)
    assert calls == []
    scores = pd.read_parquet(tmp_path / "bertscore.parquet")
    assert (scores["signature"] == "bertscore:fake_L1_no-idf|F1|scale:x100").all()
    # other options are another metric
    calls.clear()
    run(study(tmp_path, {**FOUR, **FIFTH}), {**settings, "num_layers": 2})
    assert len(calls) == summary["distinct_pairs"]
    # idf weights depend on all references scored together: all pairs, in one call
    calls.clear()
    run(study(tmp_path, {**FOUR, **FIFTH}), {**settings, "idf": True})
    run(study(tmp_path, {**FOUR, **FIFTH}), {**settings, "idf": True})
    assert len(calls) == 2 * summary["distinct_pairs"]
