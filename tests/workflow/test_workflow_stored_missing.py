"""'Bring your own model' (3) copied as written before its outputs exist, after a default run
(issue 33): the run stops at start-up with one line naming system, key and path, and nothing
under results/ changes; with the files that `gendermt stored template` writes, it plans the
system's translations."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from .. import default_plan as plan
from ..conftest import ROOT
from ..workflow_support import RUN_TIMEOUT, output_of, planned_jobs, snakemake

pytestmark = pytest.mark.workflow

# docs/backends.md, "3. Outputs you already have", as written there
MINE = """\
systems:
  my-outputs:
    backend: stored
    path: "outputs/{benchmark}/{prompt}.txt"   # one hypothesis per line, in item order
    # format: table  (CSV/TSV/JSONL with item_id and `column`: hypothesis)
benchmarks:
  fairtranslate:
    systems: [oracle-male, oracle-female, oracle-inclusive, copy-source, gemma3-270m,
              my-outputs]
"""
LINE = ("system my-outputs: systems.my-outputs.path: stored outputs not found: "
        "outputs/fairtranslate/baseline.txt (fairtranslate, prompt baseline), "
        "outputs/fairtranslate/moral.txt (fairtranslate, prompt moral), ")


@pytest.fixture
def project(default_run, tmp_path):
    default_run.require_success()
    workdir = tmp_path / "project"
    shutil.copytree(default_run.workdir, workdir, copy_function=shutil.copy2, symlinks=True)
    (workdir / "mine.yaml").write_text(MINE, encoding="utf-8")
    return workdir


def _snapshot(workdir):
    return {p: p.stat().st_mtime_ns for p in (workdir / "results").rglob("*") if p.is_file()}


@pytest.mark.parametrize("dry", [False, True], ids=["run", "dry-run"])
def test_missing_stored_outputs_stop_the_start_up_and_change_nothing(project, dry):
    before = _snapshot(project)
    proc = snakemake(project, "--cores", "2", *(["-n"] if dry else []),
                     "--configfile", "config/config.yaml", "mine.yaml")
    text = output_of(proc)
    assert proc.returncode != 0, text
    lines = [line for line in text.splitlines() if line.startswith("system my-outputs:")]
    assert len(lines) == 1 and lines[0].startswith(LINE), text
    assert "No producers found" not in text and "KeyError" not in text
    assert _snapshot(project) == before


def test_the_template_files_let_it_plan_the_systems_translations(project):
    proc = subprocess.run([sys.executable, "-m", "gendermt", "stored", "template",
                           "--benchmark", "fairtranslate", "--out", "outputs"],
                          cwd=project, capture_output=True, text=True, timeout=RUN_TIMEOUT,
                          env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr
    (project / "mine.yaml").write_text(MINE.replace(
        '"outputs/{benchmark}/{prompt}.txt"', '"outputs/{benchmark}/{prompt}.tsv"\n'
        '    format: table'), encoding="utf-8")
    proc = snakemake(project, "-n", "--cores", "2", "--configfile", "config/config.yaml",
                     "mine.yaml")
    assert proc.returncode == 0, output_of(proc)
    translate = sorted(w["prompt"] for rule, w in planned_jobs(output_of(proc))
                       if rule == "translate" and w.get("system") == "my-outputs")
    # a system with no system_prompts entry runs every prompt of the benchmark
    assert translate == sorted(plan.prompts("fairtranslate"))
