"""Snakemake as it ships: the version the project claims is one claim (pyproject, the Snakefile,
the Makefile's env that tests it), an older Snakemake is refused naming both versions, every
profile leaves Snakemake's "code" out of what reruns a job, and the overrides that stay import
nothing of Snakemake's until they are installed (gendermt.workflow.snakemake_overrides)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.version import Version

from ..conftest import ROOT

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

#: what reruns a job: everything but Snakemake's "code" (a rule's code text, its script's time)
TRIGGERS = ["mtime", "params", "input", "software-env"]


def pyproject_lower_bound() -> Version:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    (req,) = [Requirement(d) for d in deps if Requirement(d).name == "snakemake"]
    (lower,) = [s.version for s in req.specifier if s.operator == ">="]
    return Version(lower)


def snakefile_min_version() -> Version:
    (found,) = re.findall(r'^min_version\("([^"]+)"\)', (ROOT / "Snakefile").read_text(), re.M)
    return Version(found)


def makefile_min_pin() -> Version:
    (found,) = re.findall(r"^SNAKEMAKE_MIN :?= *(\S+)", (ROOT / "Makefile").read_text(), re.M)
    return Version(found)


def test_the_claimed_lowest_snakemake_is_one_version():
    assert pyproject_lower_bound() == snakefile_min_version() == makefile_min_pin(), (
        "pyproject's snakemake>=, the Snakefile's min_version and the Makefile's "
        "SNAKEMAKE_MIN (make snakemake-min-env) must name the same version")


# 9.10.1: the last whose check of a script's time ignores rerun-triggers (a touched script
# reran its jobs whatever profiles/default says); 9.11.2: the last whose job scheduler needs a
# `cbc` on PATH (without one it falls back to its greedy scheduler, warning; 9.11.0 stops)
@pytest.mark.parametrize("older", ["9.10.1", "9.11.2"])
def test_a_snakemake_below_the_claim_stops_naming_both_versions(monkeypatch, older):
    import snakemake.common
    from snakemake.exceptions import WorkflowError
    from snakemake.utils import min_version

    monkeypatch.setattr(snakemake.common, "__version__", older)
    with pytest.raises(WorkflowError) as raised:
        min_version(str(snakefile_min_version()))
    assert older in str(raised.value) and str(snakefile_min_version()) in str(raised.value)


@pytest.mark.parametrize("profile", ["default", "local", "slurm"])
def test_every_profile_reruns_a_job_on_anything_but_snakemakes_code(profile):
    # profiles/default is Snakemake's workflow profile (read on every call); --workflow-profile
    # profiles/local or profiles/slurm replaces it, so each says the same
    settings = yaml.safe_load((ROOT / "profiles" / profile / "config.yaml").read_text())
    assert settings["rerun-triggers"] == TRIGGERS


def test_the_wheel_carries_the_profiles():
    # gendermt run from an installed wheel runs the workflow in gendermt/_project/, where
    # Snakemake finds profiles/default next to the Snakefile
    setup = (ROOT / "setup.py").read_text()
    assert re.search(r'PROJECT_FILES = \(.*"profiles"', setup)
    assert "graft profiles" in (ROOT / "MANIFEST.in").read_text().splitlines()


def test_the_overrides_import_nothing_of_snakemake():
    # a Snakemake without what they replace loads the workflow as it ships, never ImportError
    done = subprocess.run(
        [sys.executable, "-c", "import sys, gendermt.workflow.snakemake_overrides; "
         "print(sorted(m for m in sys.modules if m.split('.')[0] == 'snakemake'))"],
        env={"PYTHONPATH": str(ROOT / "src")}, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
