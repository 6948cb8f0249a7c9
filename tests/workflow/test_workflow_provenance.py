"""Results never come from the wrong data (issue 17). After the default run: a study config
whose data file is absent stops at start-up, naming the config key and the path, and runs
nothing; pointing a benchmark at another sample reruns its data stage and everything
downstream, and nothing else — also when the new file keeps the old one's path, size and
mtime (the sha256 of the source is a param of the data stage)."""

import hashlib
import os
import shutil
from pathlib import Path

import pytest
import yaml

from .. import default_plan as plan
from ..workflow_support import explain, output_of, planned_jobs, read_json, snakemake

# Neo-GATE's data stage and everything downstream of it, and nothing else
NEOGATE_DOWNSTREAM = {"neogate_data", "neogate_inputs", "translate", "extract", "neogate_score",
                      "neogate_tables", "neogate_figures", "finish_reasons", "scorecard",
                      "run_summary", "all", "report_tables_neogate_tables",
                      "report_tables_scorecard",
                      # every benchmark's output checks and their report pages
                      "output_checks", "report_tables_output_checks",
                      "report_tables_finish_reasons",
                      # its explorer page (every item, each system's output)
                      "explorer_neogate"}


@pytest.fixture
def project(default_run, tmp_path):
    default_run.require_success()
    workdir = tmp_path / "project"
    # copy2 keeps mtimes: the copy is as up to date as the run it comes from
    shutil.copytree(default_run.workdir, workdir, copy_function=shutil.copy2, symlinks=True)
    # translations are protected(): unlock them, as a user would on purpose
    for path in (workdir / "results").rglob("*"):
        path.chmod(path.stat().st_mode | 0o200)
    return workdir


def _snapshot(workdir):
    return {p: p.stat().st_mtime_ns for p in (workdir / "results").rglob("*") if p.is_file()}


def test_a_study_config_with_absent_data_stops_and_runs_nothing(project, monkeypatch):
    # Neo-GATE's study takes its data from the Hub, else from a copy in data/neogate/: with
    # neither (huggingface_hub offline: no wait for its back-off), one line says what to do
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    before = _snapshot(project)
    proc = snakemake(project, "--cores", "2", "--configfile", "config/study/systems.yaml",
                     "config/study/neogate.yaml")
    text = output_of(proc)
    assert proc.returncode != 0, explain(proc)
    assert ("cannot fetch Neo-GATE.tsv of Hugging Face Hub dataset FBK-MT/Neo-GATE at revision "
            "be2f9358af268fad015e34d6ad5a07c47aac1858") in text
    assert "data_sources.local to a folder holding neogate/Neo-GATE.tsv" in text
    assert "Job stats" not in text and "rule " not in text
    assert _snapshot(project) == before  # nothing written, nothing touched
    assert not Path(project, "results", "neogate", "neogate").exists()  # the study's run


def test_config_files_without_the_default_must_name_their_run(project):
    mine = {"benchmarks": {"neogate": yaml.safe_load(
        (project / "config" / "config.yaml").read_text())["benchmarks"]["neogate"]},
        "systems": {"oracle-male": {"backend": "reference-oracle", "reference": "ref_male"}}}
    (project / "mine.yaml").write_text(yaml.safe_dump(mine))
    proc = snakemake(project, "-n", "--configfile", "mine.yaml")
    assert proc.returncode != 0
    assert "--configfile config/config.yaml mine.yaml" in output_of(proc), explain(proc)


def _replan(project, *args):
    proc = snakemake(project, "-n", "--cores", "2", *args)
    assert proc.returncode == 0, explain(proc)
    return planned_jobs(output_of(proc))


def test_another_sample_reruns_the_data_stage_and_everything_downstream(project):
    sample = project / "resources" / "neogate" / "Neo-GATE.tsv"
    another = project / "data" / "neogate" / "Neo-GATE.tsv"
    another.parent.mkdir(parents=True)
    lines = sample.read_text(encoding="utf-8").splitlines(keepends=True)
    another.write_text("".join(lines[:-1]), encoding="utf-8")  # one item fewer
    os.utime(another, ns=(sample.stat().st_atime_ns, sample.stat().st_mtime_ns))  # old mtime
    config = {"benchmarks": {"neogate": {"data": {"test": "data/neogate/Neo-GATE.tsv"}}}}
    (project / "another.yaml").write_text(yaml.safe_dump(config))
    args = ("--configfile", "config/config.yaml", "another.yaml")

    jobs = _replan(project, *args)
    assert {rule for rule, _ in jobs} == NEOGATE_DOWNSTREAM, jobs
    assert all(wc.get("benchmark") == "neogate" for rule, wc in jobs if rule == "translate")
    # every Neo-GATE run of every system (config/config.yaml: the oracles' and the real LLM's)
    assert sum(rule == "translate" for rule, _ in jobs) == len(plan.neogate_pairs())

    # the target first: --configfile takes every argument after it
    proc = snakemake(project, "results/default/neogate/data.json", "--cores", "2", *args)
    assert proc.returncode == 0, explain(proc)
    recorded = read_json(project / "results/default/neogate/data.json")["test"]
    assert recorded["path"] == "data/neogate/Neo-GATE.tsv"
    assert recorded["size"] == another.stat().st_size
    assert recorded["sha256"] == hashlib.sha256(another.read_bytes()).hexdigest()
    assert "neogate_data" not in {rule for rule, _ in _replan(project, *args)}


def test_a_source_rewritten_in_place_with_its_old_mtime_reruns_its_stage(project):
    sample = project / "resources" / "gate" / "data" / "ES" / "ES_2_variants.tsv"
    if not sample.exists():
        sample = next((project / "resources" / "gate" / "data").rglob("*.tsv"))
    stat = sample.stat()
    text = sample.read_text(encoding="utf-8")
    swapped = text.replace("el ", "lE ", 1)  # same size, new content
    assert swapped != text and len(swapped) == len(text)
    sample.write_text(swapped, encoding="utf-8")
    os.utime(sample, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    rules = {rule for rule, _ in _replan(project)}
    assert "gate_data" in rules and "gate_tables" in rules
    assert not {"fairtranslate_data", "neogate_data", "gate_x_e_data"} & rules
