"""Snakemake as it ships, at both ends of the range the project claims (pyproject's
snakemake>=, the Snakefile's min_version, the Makefile's SNAKEMAKE_MIN).

- With the installed Snakemake and the lowest claimed one, a moved or touched script reruns
  nothing: profiles/default (Snakemake's workflow profile) leaves "code" out of
  rerun-triggers, and the same call with "code" added would rerun the jobs (so the profile is
  what is in force).
- The lowest claimed Snakemake plans the default's jobs as the installed one does, with the
  rule files' parse served from the start-up cache (gendermt.workflow.snakemake_overrides,
  part 1), and keeps one pending re-evaluation timer (part 2).

The lowest version's tests run where GENDERMT_SNAKEMAKE_MIN names its `snakemake`
(`make snakemake-min-env`, then GENDERMT_SNAKEMAKE_MIN=$PWD/.venv-snakemake-min/bin/snakemake);
otherwise they skip, saying so. On 2 quiet cores, the lowest version's tests take about 50 s.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from packaging.version import Version

from ..unit.test_snakemake_claims import TRIGGERS, pyproject_lower_bound
from ..workflow_support import (
    QUICK_TIMEOUT,
    RUN_TIMEOUT,
    copy_project,
    explain,
    output_of,
    planned_jobs,
    snakemake_exe,
)
from .test_scheduler_timers import scheduler_passes

pytestmark = pytest.mark.workflow

MIN_ENV = "GENDERMT_SNAKEMAKE_MIN"
#: a small part of the default: FairTranslate's data, one prompt's inputs, the male oracle's
#: translation and its extraction (4 jobs, seconds)
PART = "results/default/fairtranslate/translations/oracle-male/linguistic.jsonl"
#: the extraction's script, moved below (its rule names it in translate.smk)
SCRIPT, MOVED = "../scripts/extract.py", "../scripts/moved/extract.py"


def lowest() -> str:
    exe = os.environ.get(MIN_ENV)
    if not exe:
        pytest.skip(f"{MIN_ENV} names no snakemake of the lowest claimed version: run "
                    f"`make snakemake-min-env`, then "
                    f"{MIN_ENV}=$PWD/.venv-snakemake-min/bin/snakemake")
    return exe


@pytest.fixture(params=["installed", "lowest claimed"])
def snakemake(request) -> str:
    return snakemake_exe() if request.param == "installed" else lowest()


def run(exe: str, work: Path, *args: str, timeout: float | None = QUICK_TIMEOUT) -> str:
    proc = subprocess.run([exe, "--cores", "2", *args], cwd=work, capture_output=True,
                          text=True, timeout=timeout)
    assert proc.returncode == 0, explain(proc)
    return output_of(proc)


def move_and_touch_scripts(work: Path) -> None:
    """The extraction's script moved (its rule file edited to name the new place), every
    script and rule file given a new time, as a checkout does."""
    rules = work / "workflow" / "rules" / "translate.smk"
    assert f'"{SCRIPT}"' in rules.read_text()
    rules.write_text(rules.read_text().replace(f'"{SCRIPT}"', f'"{MOVED}"'))
    moved = rules.parent / MOVED
    moved.parent.mkdir()
    (rules.parent / SCRIPT).rename(moved)
    for path in [*work.glob("workflow/**/*.py"), *work.glob("workflow/rules/*.smk"),
                 *work.glob("src/gendermt/benchmarks/*/scripts/*.py"),
                 *work.glob("src/gendermt/benchmarks/*/*.smk")]:
        os.utime(path)


def test_a_moved_or_touched_script_reruns_nothing(tmp_path, snakemake):
    work = copy_project(tmp_path / "w")
    run(snakemake, work, PART, timeout=RUN_TIMEOUT)
    move_and_touch_scripts(work)
    assert "Nothing to be done" in run(snakemake, work, "-n", PART)
    # Snakemake's own triggers (with code) would rerun them: the profile is what holds them
    redone = run(snakemake, work, "-n", PART, "--rerun-triggers", *TRIGGERS, "code")
    assert "Nothing to be done" not in redone
    assert {rule for rule, _ in planned_jobs(redone)} >= {"fairtranslate_data", "extract"}


def plan(text: str) -> list[tuple[str, tuple]]:
    return sorted((rule, tuple(sorted(wildcards.items())))
                  for rule, wildcards in planned_jobs(text))


def test_the_lowest_claimed_snakemake_plans_the_default_as_the_installed_one(tmp_path):
    exe = lowest()
    found = subprocess.run([exe, "--version"], capture_output=True, text=True, check=True)
    assert Version(found.stdout.strip()) == pyproject_lower_bound(), f"{MIN_ENV}={exe}"
    work = copy_project(tmp_path / "w")
    low = run(exe, work, "-n")
    # part 1 at work in it: the rule files' parse cached by the lowest version
    assert '"snakemake-parse:' in (work / ".snakemake/gendermt/startup.json").read_text()
    installed = run(snakemake_exe(), work, "-n")
    assert len(plan(low)) > 200 and plan(low) == plan(installed)


def test_the_lowest_claimed_snakemake_keeps_one_reevaluation_timer(tmp_path):
    exe = lowest()
    upstream, fixed = scheduler_passes(tmp_path, False, exe), scheduler_passes(tmp_path, True, exe)
    assert fixed <= 16 + 16, (upstream, fixed)
    assert upstream >= 2 * fixed, (upstream, fixed)
