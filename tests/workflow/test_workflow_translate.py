"""What reruns translation (issue 18 items 5, 6): only what changes a model's outputs.

Runtime settings (batch size, GPUs; for APIs also concurrency, timeouts, retries, the
server's address) and post-processing rerun no translation (post-processing reruns the cheap
`extract` stage); editing one backend's module reruns that backend's systems only.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from gendermt.translation.backends import output_settings

from .. import default_plan as plan
from ..workflow_support import explain, job_stats, output_of, planned_jobs, snakemake

pytestmark = pytest.mark.workflow


@pytest.fixture
def finished_copy(default_run, tmp_path) -> Path:
    default_run.require_success()
    workdir = tmp_path / "project"
    # copy2 keeps mtimes, so that the copy is as up to date as the run it comes from
    shutil.copytree(default_run.workdir, workdir, copy_function=shutil.copy2, symlinks=True)
    return workdir


def edit_config(workdir: Path, change) -> None:
    path = workdir / "config/config.yaml"
    config = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(config)
    path.write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True),
                    encoding="utf-8")


def dry_run(workdir: Path) -> tuple[dict[str, int], list]:
    proc = snakemake(workdir, "-n", "--cores", "2")
    assert proc.returncode == 0, explain(proc)
    text = output_of(proc)
    if "Nothing to be done" in text:
        return {}, []
    return job_stats(text), planned_jobs(text)


def test_runtime_settings_and_postprocessing_rerun_no_translation(finished_copy):
    def change(config):
        config["systems"]["copy-source"].update(batch_size=3, gpus=0)
        config["systems"]["oracle-male"]["batch_size"] = 7
        config["benchmarks"]["fairtranslate"]["postprocess"] = ["strip"]

    edit_config(finished_copy, change)
    stats, jobs = dry_run(finished_copy)
    assert "translate" not in stats, stats
    # the new post-processing: every FairTranslate run (config/config.yaml: the oracles' and
    # copy-source's four prompts, each real LLM's one) is extracted and scored again
    assert stats["extract"] == len(plan.runs("fairtranslate")), stats
    assert {wc["benchmark"] for rule, wc in jobs if rule == "extract"} == {"fairtranslate"}


def test_a_backends_version_reruns_only_its_systems_and_its_code_none(finished_copy):
    """A translation job's code param is declared (gendermt.workflow.translation_code): a
    refactoring of a backend reruns no translation; a bump of its `request_version` (a change
    to what it sends) reruns its systems' and no other's."""
    module = finished_copy / "src/gendermt/translation/backends/rule_rewriter.py"
    text = module.read_text(encoding="utf-8")
    module.write_text(text + "\n\ndef _unused() -> int:\n    return 1\n", encoding="utf-8")
    stats, jobs = dry_run(finished_copy)
    assert "translate" not in stats, jobs
    anchor = '    name: ClassVar[str] = "rule-rewriter"\n'
    assert anchor in text
    module.write_text(text.replace(anchor, anchor + "    request_version: ClassVar[int] = 2\n"),
                      encoding="utf-8")
    for path in (finished_copy / "results").glob("*/raw/rule-rewriter/*"):
        path.chmod(path.stat().st_mode | 0o200)  # protected (README, "Protected outputs")
    stats, jobs = dry_run(finished_copy)
    translated = {wc["system"] for rule, wc in jobs if rule == "translate"}
    assert translated == {"rule-rewriter"}, jobs
    assert stats["translate"] == stats["extract"] >= 1, stats


def test_api_runtime_settings_are_not_part_of_the_params():
    settings = {"backend": "openai-compatible", "base_url": "http://127.0.0.1:8001/v1",
                "model": "m", "temperature": 0, "max_tokens": 64, "api_key_env": "KEY",
                "concurrency": 8, "timeout": 30, "max_retries": 2, "backoff": 0.5,
                "retry_after_max": 10, "batch_size": 16, "gpus": 0}
    assert output_settings(settings) == {"backend": "openai-compatible", "model": "m",
                                         "temperature": 0, "max_tokens": 64,
                                         "server": "http://127.0.0.1:8001/v1"}


def test_reordered_or_renumbered_settings_are_the_same_params():
    """Issue 31 item 4: Snakemake compares params by repr; a system's YAML block with its keys
    in another order, or 0.0 for 0, is the same settings and reruns nothing."""
    a = yaml.safe_load("backend: hf-causal\nmodel: m\ntemperature: 0\nmax_new_tokens: 64\n"
                       "batch_size: 8\n")
    b = yaml.safe_load("max_new_tokens: 64.0\nbatch_size: 8\ntemperature: 0.0\nmodel: m\n"
                       "backend: hf-causal\n")
    assert repr(output_settings(a)) == repr(output_settings(b))
    assert list(output_settings(a)) == sorted(output_settings(a))
    # a real change still is one
    assert repr(output_settings(a)) != repr(output_settings({**b, "temperature": 0.5}))
