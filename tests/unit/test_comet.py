"""COMET: de-duplication of triples, our own errors, and the real unbabel-comet code path on a
tiny random-weight checkpoint built on the fly, in the COMET environment (.venv-comet)."""

from __future__ import annotations

import json
import os
import subprocess
import types

import pandas as pd
import pytest

from gendermt.core.errors import MissingResourceError
from gendermt.data.io import write_jsonl
from gendermt.scoring import comet

from ..conftest import ROOT

COMET_PYTHON = ROOT / ".venv-comet" / "bin" / "python"
needs_comet_env = pytest.mark.skipif(
    not COMET_PYTHON.exists(),
    reason="the COMET environment .venv-comet is absent (create it with `make comet-env`; "
           ".ci/run does)")


def in_comet_env(*args: str, home, timeout: int = 600) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "HF_HUB_OFFLINE": "1",
           "HF_HOME": str(home), "TRANSFORMERS_OFFLINE": "1"}
    return subprocess.run([str(COMET_PYTHON), *args], capture_output=True, text=True,
                          env=env, timeout=timeout, cwd=ROOT)


def test_triples_are_collected_per_run_and_deduplicated(tmp_path):
    data = pd.DataFrame({"item_id": ["a", "b", "c"], "source": ["s1", "s2", "s2"],
                         "reference": ["r1", "r2", "r3"]})
    files = []
    for system, prompt, hyps in [("x", "p", ["h1", "h2", "h2"]), ("x", "q", ["h1", "h2", "h2"]),
                                 ("y", "p", ["h1", "zz", "h2"])]:
        path = tmp_path / system / f"{prompt}.jsonl"
        write_jsonl(path, ({"item_id": i, "hypothesis": h} for i, h in zip("abc", hyps,
                                                                          strict=True)))
        files.append(path)
    frame = comet.collect_triples(files, data)
    assert len(frame) == 9
    assert frame[["system", "prompt"]].drop_duplicates().values.tolist() == [
        ["x", "p"], ["x", "q"], ["y", "p"]]
    # (s1,h1,r1), (s2,h2,r2), (s2,h2,r3), (s2,zz,r2): same source+hypothesis, other reference
    # is another triple
    assert len(comet.distinct_triples(frame)) == 4

    write_jsonl(files[0], [{"item_id": "a", "hypothesis": "h1"}])
    with pytest.raises(Exception, match="2 of 3 items have no hypothesis"):
        comet.collect_triples(files, data)


def test_checkpoint_folder_without_ckpt_is_named(tmp_path):
    assert comet.checkpoint_path(str(tmp_path / "nowhere")) is None
    with pytest.raises(MissingResourceError, match="has no checkpoints/model.ckpt"):
        comet.checkpoint_path(str(tmp_path))


def test_without_comet_installed_the_message_says_where_it_lives():
    try:
        import comet as _  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("COMET is installed in this environment")
    with pytest.raises(MissingResourceError, match="make comet-env"):
        comet.load_model("Unbabel/wmt22-comet-da")


@needs_comet_env
def test_offline_without_checkpoint_fails_at_once_with_our_message(tmp_path):
    code = ("import time, sys\n"
            "import comet\n"  # imports first: the time that counts is load_model's
            "from gendermt.scoring.comet import load_model\n"
            "t = time.perf_counter()\n"
            "try:\n"
            "    load_model('Unbabel/wmt22-comet-da')\n"
            "except Exception as exc:\n"
            "    print(type(exc).__name__, time.perf_counter() - t)\n"
            "    print(exc)\n")
    proc = in_comet_env("-c", code, home=tmp_path / "hf")
    assert proc.returncode == 0, proc.stderr[-3000:]
    first, message = proc.stdout.split("\n", 1)
    name, seconds = first.split()
    assert name == "MissingResourceError", proc.stdout
    assert float(seconds) < 5, "it looked for the model on the network"
    assert "not in the local Hugging Face cache" in message
    assert "HF_HUB_OFFLINE is set" in message
    assert "scoring.comet.model" in message and "hf download Unbabel/wmt22-comet-da" in message
    assert "not supported" not in message


@needs_comet_env
def test_tiny_checkpoint_through_unbabel_comet(tmp_path):
    """load_from_checkpoint, predict and batching of unbabel-comet, on a 2-layer XLM-R with a
    tokenizer trained on the fly; each distinct triple is scored once, and batched scores equal
    the scores of the same triples one by one."""
    proc = in_comet_env(str(ROOT / "tests" / "comet_support" / "tiny_comet.py"), str(tmp_path),
                        home=tmp_path / "hf")
    assert proc.returncode == 0, proc.stderr[-5000:]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["version"] == "2.2.7"
    scores = pd.DataFrame(report["scores"])
    assert len(scores) == 24
    assert scores["score"].notna().all()
    assert (scores["metric"] == "comet").all()
    assert scores["signature"].str.endswith("|unbabel-comet:2.2.7|scale:x100").all()
    # batched (batch size 4, distinct triples) vs one by one (batch size 1, every item)
    assert scores["score"].tolist() == pytest.approx(report["one_by_one"], abs=1e-3)
    # the copy system ignores the prompt: identical triples, identical scores
    by_run = scores.set_index(["system", "prompt", "item_id"])["score"]
    assert by_run["copy", "baseline"].tolist() == by_run["copy", "moral"].tolist()
    # a random-weight model still tells different triples apart
    assert by_run["copy", "baseline"].nunique() > 1
    summary = report["summary"]
    assert summary["items"] == 24
    # copy: 6 triples, repeated under the second prompt; oracle: 6 under baseline, of which
    # the moral run repeats 3 and adds 3
    assert summary["distinct_triples"] == 6 + 6 + 3
    assert summary["calls_saved"] == 24 - 15
    assert set(summary["runs"]) == {"copy/baseline", "copy/moral", "oracle/baseline",
                                    "oracle/moral"}
    # the score store: the first run scores every distinct triple; with a fifth run added,
    # only its 3 new triples (its first three are the oracle's); the scores read back from
    # the store are those computed without it
    first, fifth = report["store_summaries"]
    assert (first["scored_this_run"], first["from_store"]) == (15, 0)
    assert (fifth["distinct_triples"], fifth["scored_this_run"], fifth["from_store"]) == (
        18, 3, 15)
    stored = pd.DataFrame(report["stored_scores"])
    assert len(stored) == 30
    merged = stored.merge(scores, on=["system", "prompt", "item_id"], suffixes=("", "_direct"))
    assert merged["score"].tolist() == pytest.approx(merged["score_direct"].tolist(), abs=1e-9)


@needs_comet_env
def test_bertscore_through_the_command_line_on_a_tiny_model(tmp_path):
    """BERTScore offline on a 2-layer random BERT saved locally: behind `gendermt score mt`
    (an identical pair scores 100, the per-segment file agrees with the JSON), equal to
    bert_score.score called directly, and the workflow stage scores each distinct pair once."""
    hyp, ref, seg = tmp_path / "hyp.txt", tmp_path / "ref.txt", tmp_path / "seg.jsonl"
    hyp.write_text("the nurse finished her shift .\nl' ingénieur a vérifié le pont .\n",
                   encoding="utf-8")
    ref.write_text("the nurse finished her shift .\nl' ingénieur a fini le pont .\n",
                   encoding="utf-8")
    proc = in_comet_env(str(ROOT / "tests" / "comet_support" / "tiny_bertscore.py"),
                        str(tmp_path), str(hyp), str(ref), home=tmp_path / "hf")
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    proc = in_comet_env("-m", "gendermt", "score", "mt", "--hyp", str(hyp), "--ref", str(ref),
                        "--metrics", "bertscore", "--bertscore-model", report["model"],
                        "--bertscore-layers", "1", "--gpus", "0", "--json", "--segments",
                        str(seg), home=tmp_path / "hf")
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(proc.stdout)["bertscore"]
    assert result["signature"].startswith("bertscore:") and "_L1_no-idf" in result["signature"]
    rows = [json.loads(line)["bertscore"] for line in seg.read_text(encoding="utf-8").splitlines()]
    assert rows[0] == pytest.approx(100, abs=1e-4)
    assert 0 < rows[1] < 100
    assert result["score"] == pytest.approx(sum(rows) / 2)
    assert rows == pytest.approx(report["direct"], abs=1e-6)
    assert (report["summary"]["items"], report["summary"]["distinct_pairs"]) == (4, 2)
    stage = pd.DataFrame(report["stage"])
    assert list(stage["prompt"]) == ["p", "p", "q", "q"]
    assert (stage["metric"] == "bertscore").all()
    assert stage["score"].tolist() == pytest.approx(rows * 2, abs=1e-6)


def test_hypothesis_normaliser_reaches_comet_and_its_signature(tmp_path, monkeypatch):
    """normalize_hypotheses: COMET scores the normalised hypotheses, as the authors did, and
    the signature says so (the model is replaced by a recorder: no weights needed)."""
    seen = []

    def fake_score(model, triples, batch_size, gpus):
        seen.extend(triples["hypothesis"])
        return [50.0] * len(triples)

    monkeypatch.setattr(comet, "_import_comet", lambda: types.SimpleNamespace(__version__="0.0"))
    monkeypatch.setattr(comet, "resolve_checkpoint",
                        lambda model, cache_dir=None: ("m.ckpt", "hub:0"))
    monkeypatch.setattr(comet, "_load", lambda module, ckpt, model: None)
    monkeypatch.setattr(comet, "score_triples", fake_score)
    data = tmp_path / "data.parquet"
    pd.DataFrame({"item_id": ["a"], "source": ["They left."],
                  "reference": ["Iel est parti.e."]}).to_parquet(data)
    path = tmp_path / "x" / "p.jsonl"
    write_jsonl(path, [{"item_id": "a", "hypothesis": "Il ou elle est parti·e."}])
    out = tmp_path / "comet.parquet"
    comet.comet_benchmark([path], data, out, tmp_path / "comet.json", {"model": "m"},
                          normalize="non_binary_standardization")
    assert seen == ["Iel est parti.e."]
    assert pd.read_parquet(out)["signature"].iloc[0].endswith("|hyp:non_binary_standardization")
    summary = json.loads((tmp_path / "comet.json").read_text())
    assert summary["hypothesis_normalization"] == "non_binary_standardization"
