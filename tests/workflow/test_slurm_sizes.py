"""What each translation job asks SLURM for, in a dry run with the SLURM profile (the executor
plugin plans the jobs; no cluster is needed): jobs that read files ask for little, GPU jobs
for their GPUs and the memory their model's size gives (gendermt.workflow.job_size).

A dry run prints each job's resources as the plugin would submit them (mem_mb → --mem,
runtime → --time, cpus_per_task, gpu → --gpus, slurm_partition → -p). Skipped where the
plugin is not installed; with GENDERMT_REQUIRE_SLURM=1 (.ci/run) it fails instead.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import struct
import subprocess

import pytest
import yaml

from gendermt.workflow.job_size import FILES

from .. import tiny_models
from ..slurm_support import REQUIRED
from ..workflow_support import QUICK_TIMEOUT, copy_project, explain, output_of, snakemake_exe

FT = "results/default/fairtranslate"
PROMPTS = ["baseline", "moral"]
# a 7B chat model as far as planning reads it: config, tokenizer, and a safetensors header
# that declares 7e9 bfloat16 weights (the data is never read by a dry run)
BIG_PARAMS = 7_000_000_000
ENV = {"GENDERMT_SLURM_PARTITION": "cpuq", "GENDERMT_SLURM_GPU_PARTITION": "gpuq",
       "GENDERMT_SLURM_GPU_MODEL": "h100"}


@pytest.fixture(scope="module", autouse=True)
def slurm_plugin():
    if importlib.util.find_spec("snakemake_executor_plugin_slurm") is None:
        reason = "snakemake-executor-plugin-slurm is not installed (pip install -e '.[slurm]')"
        if REQUIRED:
            pytest.fail(f"GENDERMT_REQUIRE_SLURM=1 but {reason}")
        pytest.skip(reason)


def slurm_env() -> dict[str, str]:
    """This process's environment less the user's own SLURM settings, plus the test's."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GENDERMT_SLURM_")}
    return {**env, **ENV}


def big_model(folder, tokenizer_from):
    folder.mkdir()
    for path in tokenizer_from.iterdir():
        if not path.name.endswith(".safetensors"):
            (folder / path.name).write_bytes(path.read_bytes())
    header = json.dumps({"model.weight": {"dtype": "BF16", "shape": [BIG_PARAMS],
                                          "data_offsets": [0, 2 * BIG_PARAMS]}}).encode()
    (folder / "model.safetensors").write_bytes(struct.pack("<Q", len(header)) + header)
    return folder


def job_resources(text: str) -> list[tuple[str, dict[str, str], dict[str, str]]]:
    """(rule, wildcards, resources) of every job a dry run lists."""
    jobs = []
    for block in re.split(r"\n\s*\n", text):
        rule = re.search(r"^\s*(?:local)?rule (\S+):", block, flags=re.M)
        if not rule:
            continue
        found = {}
        for key in ("wildcards", "resources"):
            line = re.search(rf"^\s+{key}: (.*)$", block, flags=re.M)
            found[key] = dict(kv.split("=", 1) for kv in line[1].split(", ")) if line else {}
        jobs.append((rule[1], found["wildcards"], found["resources"]))
    return jobs


@pytest.fixture(scope="module")
def planned(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("slurm-sizes")
    marian = tiny_models.build_seq2seq(tmp / "marian")
    llama = tiny_models.build_causal(tmp / "llama")
    big = big_model(tmp / "big-llm", llama)
    workdir = copy_project(tmp / "project")
    config_file = workdir / "config" / "config.yaml"
    config = yaml.safe_load(config_file.read_text(encoding="utf-8"))
    ft = config["benchmarks"]["fairtranslate"]
    for key in ("system_prompts", "decoding"):  # they name the default's LLMs
        ft.pop(key, None)
    systems = ["oracle-male", "copy-source", "nmt", "llm", "llm-cpu"]
    config["benchmarks"] = {"fairtranslate": {**ft, "systems": systems, "prompts": PROMPTS}}
    config["systems"] = {
        "oracle-male": config["systems"]["oracle-male"],
        # asks for a GPU (any backend may): it gets it, and still reads a file
        "copy-source": {"backend": "copy-source", "gpus": 1},
        "nmt": {"backend": "hf-seq2seq", "model": str(marian), "gpus": 1},
        "llm": {"backend": "hf-causal", "model": str(big), "gpus": 2, "temperature": 0},
        "llm-cpu": {"backend": "hf-causal", "model": str(big), "gpus": 0, "temperature": 0},
    }
    config_file.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    targets = [f"{FT}/translations/{s}/{p}.jsonl" for s in systems for p in PROMPTS]
    proc = subprocess.run([snakemake_exe(), "--workflow-profile", "profiles/slurm", "--dry-run",
                           *targets], cwd=workdir, capture_output=True, text=True,
                          timeout=QUICK_TIMEOUT, env=slurm_env())
    assert proc.returncode == 0, explain(proc)
    return [j for j in job_resources(output_of(proc))
            if j[0] in ("translate", "translate_sources")]


def sizes(jobs, rule, system):
    return [(r["mem_mb"], r["runtime"], r["cpus_per_task"], r["gpu"], r["slurm_partition"])
            for name, w, r in jobs if name == rule and w["system"] == system]


def test_jobs_that_read_files_ask_for_little(planned):
    small = (str(FILES.mem_mb), str(FILES.runtime), "1", "0", "cpuq")
    assert sizes(planned, "translate", "oracle-male") == [small] * len(PROMPTS)
    # a GPU the user asked for is given (any backend may ask), the memory stays small
    assert sizes(planned, "translate", "copy-source") == [
        (str(FILES.mem_mb), str(FILES.runtime), "1", "1", "gpuq")] * len(PROMPTS)
    # the NMT system's prompt jobs take their outputs from its sources job: a file read
    assert sizes(planned, "translate", "nmt") == [small] * len(PROMPTS)
    assert int(FILES.mem_mb) <= 1000 and FILES.runtime <= 15  # not the former 16 GB / 4 h


def test_gpu_jobs_ask_for_their_gpus_and_their_models_memory(planned):
    # 3000 MB + 7e9 x 2 bytes (bfloat16 on a GPU) x 1.5, rounded up to a GB
    assert sizes(planned, "translate", "llm") == [("24000", "240", "2", "2", "gpuq")] * 2
    # on a CPU the same model computes in float32: 3000 + 7e9 x 4 x 1.5
    assert sizes(planned, "translate", "llm-cpu") == [("45000", "240", "2", "0", "cpuq")] * 2
    # the tiny NMT model: its GPU, and the overhead of a model job (a few thousand weights)
    assert sizes(planned, "translate_sources", "nmt") == [("4000", "240", "2", "1", "gpuq")]
    gpu_models = {r["gpu_model"] for _, _, r in planned if r["gpu"] != "0"}
    assert gpu_models == {"h100"}
