"""What stops or reruns a finished run (issue 31 items 3, 5, 7), on a small project of its own
(FairTranslate, one prompt, copy-source): a prompt edit stops the run before anything runs,
also as root (the project's own check of protected outputs), until `--config
rerun_protected=true`; touching a 2 MB data file (same bytes, new mtime) reruns nothing, while
changing its bytes reruns its data stage; a failing job's log keeps every `--retries` attempt."""

from __future__ import annotations

import os
import shutil

import numpy as np
import pandas as pd
import pytest
import yaml

from ..workflow_support import (
    RUN_TIMEOUT,
    copy_project,
    explain,
    job_stats,
    output_of,
    snakemake,
)

pytestmark = pytest.mark.workflow

SAMPLE = "resources/fairtranslate/data/train-00000-of-00001.parquet"
BIG = "big/fairtranslate.parquet"


def mini_config(data: str, run: str = "mini", systems: dict | None = None) -> dict:
    return {"run": run,
            "benchmarks": {"fairtranslate": {
                "data": {"path": data},
                "templates": "src/gendermt/benchmarks/fairtranslate/prompts/translate.yaml",
                "prompts": ["baseline"], "systems": list(systems or {"copy-source": 0}),
                "postprocess": ["first_line"], "metrics": ["bleu"],
                "clean_outlier": {"enabled": False}}},
            "systems": systems or {"copy-source": {"backend": "copy-source"}}}


def write_big_sample(workdir, size=2_000_000) -> None:
    """The sample with a column of incompressible padding: over Snakemake's 1 MB checksum
    limit."""
    frame = pd.read_parquet(workdir / SAMPLE)
    rng = np.random.default_rng(0)
    per_row = size // len(frame) + 1
    frame["padding"] = [rng.bytes(per_row // 2).hex() for _ in range(len(frame))]
    (workdir / BIG).parent.mkdir(exist_ok=True)
    frame.to_parquet(workdir / BIG)
    assert (workdir / BIG).stat().st_size > size


@pytest.fixture(scope="module")
def mini(tmp_path_factory):
    workdir = copy_project(tmp_path_factory.mktemp("rerun") / "project", share_cache=False)
    write_big_sample(workdir)
    (workdir / "mini.yaml").write_text(yaml.safe_dump(mini_config(BIG)))
    proc = snakemake(workdir, "--cores", "2", "--configfile", "mini.yaml", timeout=RUN_TIMEOUT)
    assert proc.returncode == 0, explain(proc)
    return workdir


def dry_run(workdir, *args):
    proc = snakemake(workdir, "-n", "--cores", "2", "--configfile", "mini.yaml", *args)
    assert proc.returncode == 0, explain(proc)
    text = output_of(proc)
    return {} if "Nothing to be done" in text else job_stats(text)


def copy_of(mini, tmp_path):
    workdir = tmp_path / "copy"
    # copy2 keeps mtimes: the copy is as up to date as the run it comes from
    shutil.copytree(mini, workdir, copy_function=shutil.copy2, symlinks=True)
    return workdir


def test_touching_a_big_data_file_reruns_nothing(mini, tmp_path):
    mini = copy_of(mini, tmp_path)
    big = mini / BIG
    later = big.stat().st_mtime + 3600
    os.utime(big, (later, later))
    assert dry_run(mini) == {}
    # other bytes at the same path, size and mtime: its data stage and what follows rerun
    frame = pd.read_parquet(big)
    frame.loc[0, "padding"] = "0" * len(frame.loc[0, "padding"])
    frame.to_parquet(big)
    os.utime(big, (later, later))
    stats = dry_run(mini)
    assert stats.get("fairtranslate_data") == 1 and stats.get("translate") == 1, stats


def test_a_prompt_edit_stops_the_run_even_as_root(mini, tmp_path):
    workdir = copy_of(mini, tmp_path)
    raw = workdir / "results/mini/fairtranslate/raw/copy-source/baseline.jsonl"
    before = raw.read_bytes(), raw.stat().st_mtime_ns
    templates = workdir / "src/gendermt/benchmarks/fairtranslate/prompts/translate.yaml"
    templates.write_text(templates.read_text().replace(
        "Respond with the translation only, nothing else.", "Respond with the translation."))
    proc = snakemake(workdir, "--cores", "2", "--configfile", "mini.yaml")
    text = output_of(proc)
    assert proc.returncode != 0, explain(proc)
    if os.geteuid() != 0:  # Snakemake's own check (the file is not writable) stops it first
        assert "Write-protected output files" in text, explain(proc)
        pytest.skip("the project's own check is what stops root; not root here")
    assert "protected output(s) would be redone" in text, explain(proc)
    assert str(raw.relative_to(workdir)) in text
    assert "--config rerun_protected=true" in text
    assert "Finished jobid" not in text  # stopped before any job ran
    assert (raw.read_bytes(), raw.stat().st_mtime_ns) == before
    # the flag the message names lets it rerun
    proc = snakemake(workdir, "--cores", "2", "--configfile", "mini.yaml", "--config",
                     "rerun_protected=true", timeout=RUN_TIMEOUT)
    assert proc.returncode == 0, explain(proc)
    assert raw.stat().st_mtime_ns != before[1]
    assert not os.access(raw, os.W_OK) or os.geteuid() == 0
    assert not raw.stat().st_mode & 0o200  # protected again


def test_a_failed_jobs_log_keeps_every_retry(mini, tmp_path):
    workdir = copy_of(mini, tmp_path)
    down = {"api": {"backend": "openai-compatible", "base_url": "http://127.0.0.1:9/v1",
                    "model": "m", "max_retries": 0, "timeout": 2}}
    (workdir / "fail.yaml").write_text(yaml.safe_dump(mini_config(BIG, "fail", down)))
    proc = snakemake(workdir, "--cores", "1", "--configfile", "fail.yaml", "--retries", "1",
                     "--until", "translate", timeout=RUN_TIMEOUT)
    assert proc.returncode != 0, explain(proc)
    logs = workdir / "logs/fail/fairtranslate/translate/api"
    kept = (logs / "baseline.log.attempts").read_text()
    assert kept.count("==== run started") == 2, kept
    assert kept.count("ItemFailed") >= 2, kept


def test_an_unset_api_key_stops_the_run_before_any_job(mini, tmp_path, monkeypatch):
    """Issue 31 item 11: found at start-up, not when the first job starts."""
    workdir = copy_of(mini, tmp_path)
    monkeypatch.delenv("GENDERMT_UNSET_TEST_KEY", raising=False)
    api = {"api": {"backend": "openai-compatible", "base_url": "http://127.0.0.1:9/v1",
                   "model": "m", "api_key_env": "GENDERMT_UNSET_TEST_KEY"}}
    (workdir / "key.yaml").write_text(yaml.safe_dump(mini_config(BIG, "key", api)))
    proc = snakemake(workdir, "--cores", "1", "--configfile", "key.yaml")
    text = output_of(proc)
    assert proc.returncode != 0
    assert "systems.api.api_key_env: the environment variable GENDERMT_UNSET_TEST_KEY is " \
        "not set" in text, explain(proc)
    assert "Finished jobid" not in text
