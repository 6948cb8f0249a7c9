"""The workflow on a real (single-node) SLURM cluster, through `--workflow-profile profiles/slurm`.

Every job is an sbatch job of snakemake-executor-plugin-slurm. To keep the wall time within a few
minutes whatever other benchmarks add to the default, the SLURM run asks only for FairTranslate's
targets (its tables and figures: every job the default runs for FairTranslate); the submission
path is the same for every rule. Skipped, with the reason, where no test cluster can be used
(see tests/slurm_support.py); .ci/run makes them mandatory.
"""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest
import yaml

from ..chat_server import ChatServer
from ..slurm_support import slurm_cluster  # noqa: F401 (a fixture)
from ..workflow_support import (
    RUN_TIMEOUT,
    Run,
    copy_project,
    explain,
    job_stats,
    output_of,
    snakemake,
    snakemake_exe,
)

pytestmark = [pytest.mark.workflow, pytest.mark.usefixtures("slurm_cluster")]

FT = Path("results/default/fairtranslate")
TABLES = ["by_gender", "by_stereotype", "by_ambiguity", "anova", "dataset"]
TARGETS = [f"{FT}/tables/{t}.csv" for t in TABLES] + [
    f"{FT}/figures/score_by_gender.{ext}" for ext in ("png", "pdf")]
API = "loopback-api"
TARGET = FT / f"translations/{API}/baseline.jsonl"
PARTIAL = FT / f"raw/{API}/baseline.jsonl.partial"
SUBMITTED = re.compile(r"has been submitted with SLURM jobid (\d+)")
# the user's own settings must not leak into the test; polling every 2 s keeps it short
SLURM_ARGS = ["--workflow-profile", "profiles/slurm", "--slurm-init-seconds-before-status-checks",
              "2"]


def fairtranslate_runs() -> int:
    """The default's FairTranslate runs: each system on its prompts (system_prompts, else
    every prompt of the block)."""
    config = yaml.safe_load((Path(__file__).resolve().parents[2] / "config" / "config.yaml")
                            .read_text(encoding="utf-8"))
    spec = config["benchmarks"]["fairtranslate"]
    only = spec.get("system_prompts") or {}
    return sum(len(only.get(system, spec["prompts"])) for system in spec["systems"])


def slurm_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GENDERMT_SLURM_")}
    # the job step runs `python -m snakemake` with the Python that launched Snakemake
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    return env


def snakemake_slurm(workdir: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([snakemake_exe(), *SLURM_ARGS, *args], cwd=workdir,
                          capture_output=True, text=True, timeout=RUN_TIMEOUT and RUN_TIMEOUT * 2,
                          env=slurm_env())


@pytest.fixture(scope="module")
def slurm_run(tmp_path_factory) -> Run:
    workdir = copy_project(tmp_path_factory.mktemp("slurm") / "project")
    return Run(workdir, snakemake_slurm(workdir, *TARGETS))


def test_node_jobs_are_sbatch_jobs_and_tiny_jobs_run_locally(slurm_run):
    """Translations are sbatch jobs; data, inputs, scores, tables and figures are localrules
    (tests/unit/test_localrules.py): they run in the launching Snakemake, not through sbatch."""
    slurm_run.require_success()
    text = output_of(slurm_run.proc)
    stats = job_stats(text)
    # the oracles and baselines on the paper's 4 prompts, each real LLM on its own prompt
    runs = fairtranslate_runs()
    assert stats["translate"] == runs and stats["score"] == runs, stats
    submitted = SUBMITTED.findall(text)
    assert len(submitted) == stats["translate"], (len(submitted), stats)
    assert len(set(submitted)) == len(submitted)
    local = re.findall(r"^\s*localrule (\w+):", text, flags=re.M)
    assert sorted(set(local)) == sorted(set(stats) - {"translate", "total"}), local
    assert len(local) == stats["total"] - stats["translate"]
    assert f"{stats['total']} of {stats['total']} steps (100%) done" in text


def test_slurm_results_are_identical_to_the_local_run(slurm_run, default_run):
    slurm_run.require_success()
    default_run.require_success()
    for table in TABLES:
        for ext in ("csv", "md"):
            rel = FT / "tables" / f"{table}.{ext}"
            assert slurm_run.path(rel).read_bytes() == default_run.path(rel).read_bytes(), rel
    for local in sorted(default_run.path(FT / "translations").rglob("*.jsonl")):
        rel = local.relative_to(default_run.workdir)
        # "seconds" is a timing: everything else must match
        cols = ["item_id", "raw", "hypothesis"]
        pd.testing.assert_frame_equal(pd.read_json(slurm_run.path(rel), lines=True)[cols],
                                      pd.read_json(local, lines=True)[cols], obj=str(rel))
    scores = sorted(default_run.path(FT / "scores").rglob("*.parquet"))
    assert len(scores) == fairtranslate_runs()
    for local in scores:
        rel = local.relative_to(default_run.workdir)
        pd.testing.assert_frame_equal(pd.read_parquet(slurm_run.path(rel)),
                                      pd.read_parquet(local), obj=str(rel))


def test_expensive_outputs_are_write_protected_and_benchmarked(slurm_run):
    slurm_run.require_success()
    raw = list(slurm_run.path(FT / "raw").rglob("*.json*"))
    assert raw  # the raw outputs are what is paid for; translations/ is derived from them
    for path in raw:
        assert path.stat().st_mode & 0o222 == 0, f"{path} is writable"
    bench = slurm_run.path(
        "results/default/benchmarks/fairtranslate/translate/copy-source/baseline.tsv")
    header = bench.read_text(encoding="utf-8").splitlines()[0].split("\t")
    assert header[:2] == ["s", "h:m:s"] and "max_rss" in header


def test_a_finished_slurm_run_has_nothing_to_do(slurm_run):
    slurm_run.require_success()
    proc = snakemake(slurm_run.workdir, "-n", *TARGETS)
    assert proc.returncode == 0, explain(proc)
    assert "Nothing to be done" in output_of(proc), explain(proc)


# ----------------------------------------------------------------------------- scancel mid-run
ITEMS = 3000
# each answer of the test's chat server waits this long, one request at a time: the job takes
# at least ITEMS × DELAY (15 s) whatever the machine, long enough to be seen and killed mid-run
DELAY = 0.005


def big_project(workdir: Path, server: ChatServer) -> Path:
    """One system (an OpenAI-compatible API on the test's loopback server, on a GPU) × one
    prompt over ITEMS synthetic items, each source its own (identical requests would be sent
    once): data.parquet is written directly (the published-format loader is slow at this size)
    and is newer than its input, so that Snakemake takes it as up to date."""
    config_path = workdir / "config/config.yaml"
    config = yaml.safe_load(config_path.read_text(encoding="utf-8"))
    # FairTranslate alone: the other benchmarks' systems are replaced below
    config["benchmarks"] = {"fairtranslate": config["benchmarks"]["fairtranslate"]}
    config["benchmarks"]["fairtranslate"].update(systems=[API], prompts=["baseline"])
    for key in ("system_prompts", "decoding"):  # they name the LLMs, which are not here
        config["benchmarks"]["fairtranslate"].pop(key, None)
    # gpus: 1 (any backend may ask): the job must get the test node's (fake) GPU
    config["systems"] = {API: {"backend": "openai-compatible", "base_url": server.url,
                               "model": "tiny-chat", "temperature": 0, "max_tokens": 64,
                               "timeout": 30, "max_retries": 2, "concurrency": 1,
                               "batch_size": 1, "gpus": 1}}
    config_path.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    proc = snakemake(workdir, "--cores", "1", str(FT / "data.parquet"))
    assert proc.returncode == 0, explain(proc)
    data = pd.read_parquet(workdir / FT / "data.parquet")
    copies = -(-ITEMS // len(data))
    big = pd.concat([data.assign(item_id=data["item_id"].astype(str) + f"-{k}",
                                 source=data["source"] + f" ({k})")
                     for k in range(copies)], ignore_index=True).head(ITEMS)
    big.to_parquet(workdir / FT / "data.parquet", index=False)
    return workdir


def running_jobs() -> list[str]:
    out = subprocess.run(["squeue", "-h", "-t", "RUNNING", "-o", "%i"], capture_output=True,
                         text=True, timeout=30)
    return out.stdout.split()


def test_a_job_cancelled_mid_run_is_retried_and_resumes_without_loss_or_duplicates(
        tmp_path):
    with ChatServer(delay=DELAY) as server:
        workdir = big_project(copy_project(tmp_path / "project"), server)
        cancelled, out, returncode = run_and_cancel_mid_run(workdir)
    assert cancelled is not None, "the translation job was never seen mid-run"
    assert returncode == 0, out[-6000:]
    submissions = SUBMITTED.findall(out)
    assert cancelled[0] in submissions and len(submissions) >= 2, out[-6000:]

    inputs = pd.read_json(workdir / FT / "inputs/baseline.jsonl", lines=True)
    result = pd.read_json(workdir / TARGET, lines=True)
    assert len(result) == ITEMS
    assert list(result["item_id"].astype(str)) == list(inputs["item_id"].astype(str))
    # each item's own answer (the server echoes the request's last user message)
    users = [messages[-1]["content"] for messages in inputs["messages"]]
    assert list(result["hypothesis"]) == [f"FR: {u}" for u in users]
    meta = json.loads((workdir / FT / f"translations/{API}/baseline.meta.json").read_text())
    # the retry kept what the cancelled job had written (at least what we saw) and did the rest
    assert meta["resumed_items"] >= cancelled[1], (meta, cancelled)
    assert meta["resumed_items"] + meta["translated_this_run"] == ITEMS
    assert not (workdir / PARTIAL).exists()
    # nothing answered twice but what was in flight when the job was cancelled
    assert len(server.answered) - len(set(server.answered)) <= 1, Counter(
        server.answered).most_common(3)
    assert set(server.answered) == set(users)


def run_and_cancel_mid_run(workdir: Path) -> tuple[tuple[str, int] | None, str, int]:
    """Runs TARGET through SLURM and scancels the translation job once its partial file holds
    100 or more answers and fewer than half: (job id, answers seen) or None, the output and
    Snakemake's exit status."""
    partial = workdir / PARTIAL
    proc = subprocess.Popen([snakemake_exe(), *SLURM_ARGS, str(TARGET)], cwd=workdir,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=slurm_env())
    cancelled = None
    try:
        deadline = time.monotonic() + (RUN_TIMEOUT or math.inf)
        while time.monotonic() < deadline and proc.poll() is None:
            lines = partial.read_bytes().count(b"\n") if partial.exists() else 0
            if 100 <= lines < ITEMS // 2:
                jobs = running_jobs()
                assert len(jobs) == 1, jobs  # only the translation job runs now
                shown = subprocess.run(["scontrol", "show", "job", "-o", jobs[0]],
                                       capture_output=True, text=True, timeout=30).stdout
                assert "TresPerJob=gres:gpu:1" in shown.split(), shown
                subprocess.run(["scancel", jobs[0]], check=True, timeout=30)
                cancelled = (jobs[0], lines)
                break
            time.sleep(0.05)
        out, _ = proc.communicate(timeout=RUN_TIMEOUT)
    finally:
        if proc.poll() is None:
            proc.kill()
    return cancelled, out, proc.returncode
