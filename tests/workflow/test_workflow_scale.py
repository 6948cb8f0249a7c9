"""Incremental reruns at the workflow level: a finished run does nothing, and adding a system
reruns only that system's jobs and the aggregates that include it. (Changing a prompt's text is
tested in test_workflow.py; DAG size and timings are measured by perf/scale.py.)"""

from __future__ import annotations

import shutil
from itertools import product

import pytest
import yaml

from .. import default_plan as plan
from ..workflow_support import explain, job_stats, output_of, planned_jobs, snakemake

pytestmark = pytest.mark.workflow

# a system added with no system_prompts entry runs every prompt of the benchmark
PROMPTS = plan.prompts("fairtranslate")


@pytest.fixture
def finished_copy(default_run, tmp_path):
    default_run.require_success()
    workdir = tmp_path / "project"
    # copy2 keeps mtimes, so that the copy is as up to date as the run it comes from
    shutil.copytree(default_run.workdir, workdir, copy_function=shutil.copy2, symlinks=True)
    return workdir


def test_rerunning_a_finished_workflow_runs_nothing(finished_copy):
    proc = snakemake(finished_copy, "--cores", "2")
    assert proc.returncode == 0, explain(proc)
    text = output_of(proc)
    assert "Nothing to be done" in text, explain(proc)
    assert planned_jobs(text) == []


def test_adding_a_system_reruns_only_its_jobs_and_the_aggregates(finished_copy):
    config_path = finished_copy / "config/config.yaml"
    config = yaml.safe_load(config_path.read_text(encoding="utf-8"))
    config["systems"]["oracle-male-2"] = {"backend": "reference-oracle", "reference": "ref_male"}
    config["benchmarks"]["fairtranslate"]["systems"].append("oracle-male-2")
    config_path.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")

    proc = snakemake(finished_copy, "-n", "--cores", "2")
    assert proc.returncode == 0, explain(proc)
    text = output_of(proc)
    by_rule: dict[str, set] = {}
    for rule, wc in planned_jobs(text):
        by_rule.setdefault(rule, set()).add((wc.get("system"), wc.get("prompt")))
    assert by_rule.pop("translate") == set(product(["oracle-male-2"], PROMPTS))
    assert by_rule.pop("extract") == set(product(["oracle-male-2"], PROMPTS))
    assert by_rule.pop("score") == set(product(["oracle-male-2"], PROMPTS))
    # the aggregates over every system; no data, input or other system's job
    aggregates = ["fairtranslate_tables", "fairtranslate_figures",
                  "fairtranslate_inclusive_tables", "fairtranslate_inclusive_figures",
                  "finish_reasons", "scorecard", "run_summary", "all",
                  # the report's table pages of the rules above
                  "report_tables_fairtranslate_tables",
                  "report_tables_fairtranslate_inclusive_tables", "report_tables_scorecard",
                  # the output checks over every run, and the pages of both run tables
                  "output_checks", "report_tables_output_checks",
                  "report_tables_finish_reasons",
                  # the explorer page of its items (every system's output)
                  "explorer_fairtranslate"]
    assert by_rule == {rule: {(None, None)} for rule in aggregates}
    assert job_stats(text)["total"] == 3 * len(PROMPTS) + len(aggregates)
