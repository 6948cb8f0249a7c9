"""A system that reads only the source (hf-seq2seq, on a tiny random-weight Marian model)
under FairTranslate's prompts, jobs in parallel and the request cache empty: each
distinct source is sent once in all (one job over the distinct sources; the prompts' jobs
send nothing, on no GPU), every prompt's file holds the output of its item's source, and
adding a prompt reruns no existing prompt's job."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest
import yaml

from gendermt.data.io import read_jsonl
from gendermt.translation.source_translations import distinct_requests, shares_source_translation

from .. import tiny_models
from ..workflow_support import RUN_TIMEOUT, copy_project, explain, job_stats, output_of, snakemake

pytestmark = pytest.mark.workflow

FT = "results/default/fairtranslate"
PROMPTS = ["baseline", "moral", "linguistic", "moral_linguistic"]


def test_which_systems_share_one_translation_of_the_sources():
    assert shares_source_translation({"backend": "hf-seq2seq", "model": "m"}, 2)
    assert shares_source_translation({"backend": "apertium", "pair": "en-es"}, 4)
    # nothing to share; reads the prompt
    assert not shares_source_translation({"backend": "hf-seq2seq", "model": "m"}, 1)
    assert not shares_source_translation({"backend": "hf-causal", "model": "m"}, 4)
    assert not shares_source_translation({"backend": "reference-oracle"}, 4)  # answers per item
    assert not shares_source_translation({"backend": "copy-source"}, 4)


def test_distinct_requests_keep_the_language_pair(tmp_path):
    from gendermt.data.io import write_jsonl

    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    write_jsonl(a, [{"item_id": "1", "source": "x", "tgt_lang": "fr", "messages": [1]},
                    {"item_id": "2", "source": "y", "tgt_lang": "fr", "messages": [2]}])
    write_jsonl(b, [{"item_id": "1", "source": "x", "tgt_lang": "fr", "messages": [3]},
                    {"item_id": "2", "source": "x", "tgt_lang": "el", "messages": [4]}])
    requests = distinct_requests([a, b])
    assert [(r["source"], r["tgt_lang"]) for r in requests] == [("x", "fr"), ("y", "fr"),
                                                                ("x", "el")]
    assert all(r["messages"] == [] for r in requests)


def test_parallel_prompt_jobs_send_each_distinct_source_once(tmp_path):
    from transformers import AutoTokenizer

    model = tiny_models.build_seq2seq(tmp_path / "marian")
    tok = AutoTokenizer.from_pretrained(model)
    tok.model_max_length = 120  # the tiny model's positions: truncate the long sources
    tok.save_pretrained(model)
    workdir = copy_project(tmp_path / "project")
    config_file = workdir / "config" / "config.yaml"
    config = yaml.safe_load(config_file.read_text(encoding="utf-8"))
    ft = config["benchmarks"]["fairtranslate"]
    assert ft["prompts"][:4] == PROMPTS  # the paper's four (then the few-shot prompt)
    for key in ("system_prompts", "decoding"):  # they name the LLMs, which are not here
        ft.pop(key, None)
    config["benchmarks"] = {"fairtranslate": {**ft, "systems": ["nmt"], "prompts": PROMPTS[:2]}}
    config["systems"] = {"nmt": {"backend": "hf-seq2seq", "model": str(model),
                                 "max_new_tokens": 4, "gpus": 1, "batch_size": 8}}
    config["cache"] = {"dir": str(tmp_path / "cache"), "enabled": True}
    config_file.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    targets = [f"{FT}/translations/nmt/{p}.jsonl" for p in PROMPTS[:2]]

    proc = snakemake(workdir, *targets, "--cores", "2", "--resources", "gpu=1",
                     timeout=RUN_TIMEOUT)
    assert proc.returncode == 0, explain(proc)
    stats = job_stats(output_of(proc))
    assert stats["translate_sources"] == 1 and stats["translate"] == 2, stats
    inputs = [workdir / FT / "inputs" / f"{p}.jsonl" for p in PROMPTS[:2]]
    distinct = {(r["source"], r.get("src_lang", ""), r.get("tgt_lang", ""))
                for path in inputs for r in read_jsonl(path)}
    sources_meta = json.loads((workdir / FT / "sources" / "nmt.meta.json").read_text())
    assert sources_meta["requests_sent"] == len(distinct)
    metas = [json.loads((workdir / FT / "translations" / "nmt" / f"{p}.meta.json").read_text())
             for p in PROMPTS[:2]]
    assert [m["requests_sent"] for m in metas] == [0, 0]
    assert sources_meta["backend"] == metas[0]["backend"]
    # the prompts' jobs ask for no GPU; the sources job for the system's
    text = output_of(proc)
    blocks = [b.replace(" ", "") for b in re.split(r"^\[.*\d{4}\]$", text, flags=re.M)]
    sources_jobs = [b for b in blocks if "ruletranslate_sources:" in b]
    prompt_jobs = [b for b in blocks if "ruletranslate:" in b]
    assert len(sources_jobs) == 1 and "gpu=1" in sources_jobs[0]
    assert len(prompt_jobs) == 2 and all("gpu=0" in b for b in prompt_jobs), prompt_jobs
    # each item's output is its source's
    raw = {r["source"]: out["raw"] for r, out in zip(
        read_jsonl(workdir / FT / "sources" / "nmt.inputs.jsonl"),
        read_jsonl(workdir / FT / "sources" / "nmt.jsonl"), strict=True)}
    for p, path in zip(PROMPTS[:2], inputs, strict=True):
        source = {r["item_id"]: r["source"] for r in read_jsonl(path)}
        out = pd.DataFrame(read_jsonl(workdir / FT / "translations" / "nmt" / f"{p}.jsonl"))
        assert len(out) == len(source)
        assert all(raw[source[i]] == r for i, r in zip(out["item_id"], out["raw"],
                                                        strict=True))

    # a third prompt: the sources job is made again (from the cache: nothing sent), the
    # new prompt's job runs, the existing prompts' (protected) files are not touched
    config["benchmarks"]["fairtranslate"]["prompts"] = PROMPTS[:3]
    config_file.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    proc = snakemake(workdir, *targets, f"{FT}/translations/nmt/{PROMPTS[2]}.jsonl",
                     "--cores", "2", "--resources", "gpu=1", timeout=RUN_TIMEOUT)
    assert proc.returncode == 0, explain(proc)
    stats = job_stats(output_of(proc))
    assert stats["translate"] == 1 and stats["translate_sources"] == 1, stats
    sources_meta = json.loads((workdir / FT / "sources" / "nmt.meta.json").read_text())
    assert sources_meta["requests_sent"] == 0
    assert sources_meta["cached_items"] == sources_meta["items"]


def test_a_prompt_job_takes_only_outputs_made_with_its_own_settings(tmp_path):
    """translate_file(shared=...) on the sources file: every request answered from it with
    the same settings (nothing sent); with other decoding settings (another identity), none."""
    from gendermt.data.io import write_jsonl
    from gendermt.translation.runner import translate_file
    from gendermt.translation.source_translations import shared_outputs, translate_sources

    model = tiny_models.build_seq2seq(tmp_path / "marian")
    data = pd.DataFrame({"item_id": ["a", "b", "c"], "source": ["the nurse", "he said",
                                                                "the nurse"]})
    data.to_parquet(tmp_path / "data.parquet", index=False)
    inputs = []
    for prompt in ("p", "q"):
        path = tmp_path / "inputs" / f"{prompt}.jsonl"
        write_jsonl(path, ({"item_id": i, "source": s, "messages": [{"role": "user",
                                                                   "content": prompt + s}],
                            "tgt_lang": "fr", "prompt": prompt}
                           for i, s in zip(data["item_id"], data["source"], strict=True)))
        inputs.append(path)
    settings = {"backend": "hf-seq2seq", "model": str(model), "max_new_tokens": 3, "gpus": 0}
    sources = tmp_path / "sources" / "nmt.jsonl"
    translate_sources(inputs, tmp_path / "data.parquet", "nmt", settings,
                      tmp_path / "sources" / "nmt.inputs.jsonl", sources,
                      tmp_path / "sources" / "nmt.meta.json")
    assert json.loads((tmp_path / "sources" / "nmt.meta.json").read_text())[
        "requests_sent"] == 2
    shared = shared_outputs(sources)
    assert len(shared) == 2

    def prompt_job(settings, name):
        out = tmp_path / name / "p.jsonl"
        translate_file(inputs[0], tmp_path / "data.parquet", "nmt", settings, out,
                       tmp_path / name / "p.meta.json", shared=shared)
        return (json.loads((tmp_path / name / "p.meta.json").read_text()),
                [r["raw"] for r in read_jsonl(out)])

    meta, raws = prompt_job(settings, "same")
    assert meta["requests_sent"] == 0 and meta["cached_items"] == 3
    assert raws[0] == raws[2]
    meta, _ = prompt_job({**settings, "max_new_tokens": 4}, "other")
    assert meta["requests_sent"] == 2 and meta["cached_items"] == 0
