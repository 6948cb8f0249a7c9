"""Through the workflow: one tiny random NLLB system translates MT-GenEval's sample into each
of its languages (fr, de, es: each request's own target language forced), and a language the
model does not know stops its job with the one-line error, before anything is generated."""

from __future__ import annotations

import pytest
import yaml

from gendermt.data.io import read_jsonl

from .. import tiny_models
from ..workflow_support import RUN_TIMEOUT, copy_project, explain, snakemake

pytestmark = pytest.mark.workflow

MG = "results/default/mt-geneval"


def configure(workdir, model, cache, name="nllb", **system):
    config_file = workdir / "config" / "config.yaml"
    config = yaml.safe_load(config_file.read_text(encoding="utf-8"))
    mg = config["benchmarks"]["mt-geneval"]
    mg.pop("system_prompts", None)
    mg["data"]["languages"] = ["fr", "de", "es"]
    config["benchmarks"] = {"mt-geneval": {**mg, "systems": [name], "prompts": ["baseline"]}}
    config["systems"] = {name: {"backend": "hf-seq2seq", "model": str(model),
                                  "max_new_tokens": 4, "batch_size": 8, "gpus": 0, **system}}
    config["cache"] = {"dir": str(cache), "enabled": True}
    config_file.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")


def test_one_nllb_system_translates_into_every_language(tmp_path):
    model = tiny_models.build_nllb(tmp_path / "nllb")
    workdir = copy_project(tmp_path / "project")
    configure(workdir, model, tmp_path / "cache")
    target = f"{MG}/translations/nllb/baseline.jsonl"
    proc = snakemake(workdir, target, "--cores", "2", timeout=RUN_TIMEOUT)
    assert proc.returncode == 0, explain(proc)
    inputs = read_jsonl(workdir / MG / "inputs" / "baseline.jsonl")
    assert {r["tgt_lang"] for r in inputs} == {"fr", "de", "es"}
    assert len(read_jsonl(workdir / target)) == len(inputs)
    logs = "".join(p.read_text() for p in (workdir / "logs").rglob("*.log"))
    assert "the target language of each request (nllb)" in logs

    # a code the model does not have: the job fails naming it, and writes no output
    configure(workdir, model, tmp_path / "cache", name="wrong", lang_codes={"de": "xxx_Xxxx"})
    wrong = f"{MG}/translations/wrong/baseline.jsonl"
    proc = snakemake(workdir, wrong, "--cores", "2", timeout=RUN_TIMEOUT)
    assert proc.returncode != 0 and not (workdir / wrong).exists()
    assert not (workdir / MG / "raw" / "wrong" / "baseline.jsonl").exists()
    logs = "".join(p.read_text() for p in (workdir / "logs").rglob("*.log"))
    assert "has no language code for the target language 'de'" in logs, explain(proc)
