"""Running Snakemake on a temporary copy of the project, for the workflow tests."""

from __future__ import annotations

import atexit
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# What a run needs; never results/, logs/, .snakemake/, .venv/ or .git/. src/ too: common.smk
# puts <Snakefile dir>/src on sys.path.
PROJECT_ENTRIES = ["Snakefile", "workflow", "config", "resources", "envs", "profiles", "src"]
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")

# No wall-clock bound of the tests' own on Snakemake and `make` runs (None): the default (224
# jobs) takes about 3 min on 2 quiet cores and far longer on a slow or shared machine, which
# must not turn the tests into errors; CI's own job limit bounds a hung run.
# GENDERMT_TEST_RUN_TIMEOUT (seconds) sets a bound where one is wanted.
RUN_TIMEOUT = (float(os.environ["GENDERMT_TEST_RUN_TIMEOUT"])
               if os.environ.get("GENDERMT_TEST_RUN_TIMEOUT") else None)
QUICK_TIMEOUT = RUN_TIMEOUT  # dry runs, --lint, --report: as slow as the machine is


def snakemake_exe() -> str:
    beside = Path(sys.executable).parent / "snakemake"
    if beside.exists():
        return str(beside)
    found = shutil.which("snakemake")
    if found is None:
        pytest.skip("no snakemake executable next to this Python nor on PATH")
    return found


# One request cache for every copy of the project in a test session: the default's real
# LLM (smollm2-135m) answers each request once per session, not once per copy (its outputs
# are a function of the request: greedy, one thread). Outputs, tables and reports are still
# made from scratch in each copy.
SHARED_CACHE = Path(tempfile.mkdtemp(prefix="gendermt-test-cache-"))
atexit.register(shutil.rmtree, SHARED_CACHE, True)


def copy_project(dest: Path, share_cache: bool = True) -> Path:
    """The project's files in ``dest``; with ``share_cache``, its ``results/cache`` is the
    session's shared request cache."""
    dest.mkdir(parents=True, exist_ok=True)
    for name in PROJECT_ENTRIES:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=IGNORED)
        elif src.exists():
            shutil.copy2(src, dest / name)
    if share_cache:
        (dest / "results").mkdir(exist_ok=True)
        (dest / "results" / "cache").symlink_to(SHARED_CACHE, target_is_directory=True)
    return dest


# What `make` needs beside them (the README's quick start runs `make run` and `make test`).
MAKE_ENTRIES = ["Makefile", "pyproject.toml", "README.md", "tests", "tools"]


def make_ready(workdir: Path) -> dict[str, str]:
    """Let the README's `make` commands run in a copy of the project as written: its `.venv`
    is this test session's environment (bin/ linked, marked installed, so `make` installs
    nothing) and the copy's src/ comes first on the path. Returns the environment to run
    `make` with."""
    for name in MAKE_ENTRIES:
        src, dest = ROOT / name, workdir / name
        if dest.exists():
            continue
        if src.is_dir():
            shutil.copytree(src, dest, ignore=IGNORED)
        else:
            shutil.copy2(src, dest)
    if shutil.which("make") is None:
        pytest.skip("no `make` on PATH (the README's quick start needs it)")
    venv = workdir / ".venv"
    venv.mkdir(exist_ok=True)
    if not (venv / "bin").exists():
        (venv / "bin").symlink_to(Path(sys.executable).parent, target_is_directory=True)
    (venv / ".installed").touch()  # newer than the copied pyproject.toml: nothing to install
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(workdir / "src"), env.get("PYTHONPATH", "")])
    return env


def readme_blocks(section: str, readme: Path = ROOT / "README.md") -> list[str]:
    """The ```bash blocks of the README's `## section`, as written."""
    text = readme.read_text(encoding="utf-8")
    match = re.search(rf"^## {re.escape(section)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match, f"README.md has no section '## {section}'"
    return re.findall(r"^```bash\n(.*?)^```", match[1], re.M | re.S)


def run_shell(workdir: Path, script: str, env: dict[str, str],
              timeout: float | None = RUN_TIMEOUT
              ) -> subprocess.CompletedProcess:
    """``script`` run by bash in ``workdir``, stopping at the first failing command."""
    return subprocess.run(["bash", "-e", "-c", script], cwd=workdir, env=env,
                          capture_output=True, text=True, timeout=timeout)


def snakemake(workdir: Path, *args: str, timeout: float | None = QUICK_TIMEOUT
              ) -> subprocess.CompletedProcess:
    return subprocess.run([snakemake_exe(), *args], cwd=workdir, capture_output=True, text=True,
                          timeout=timeout)


def output_of(proc: subprocess.CompletedProcess) -> str:
    return proc.stdout + proc.stderr


def explain(proc: subprocess.CompletedProcess) -> str:
    return (f"`{' '.join(map(str, proc.args))}` exited {proc.returncode}\n"
            f"--- stdout (end) ---\n{proc.stdout[-3000:]}\n"
            f"--- stderr (end) ---\n{proc.stderr[-6000:]}")


def job_stats(text: str) -> dict[str, int]:
    """The first "Job stats:" table of Snakemake's output, as {rule: count} (with "total")."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip() == "Job stats:"), None)
    assert start is not None, f"no 'Job stats:' table in the output:\n{text[-3000:]}"
    stats = {}
    for line in lines[start + 3:]:  # skip the header and the dashes
        match = re.fullmatch(r"\s*(\S+)\s+(\d+)\s*", line)
        if not match:
            break
        stats[match[1]] = int(match[2])
    return stats


def planned_jobs(text: str) -> list[tuple[str, dict[str, str]]]:
    """(rule, wildcards) of each job a (dry) run lists."""
    jobs: list[tuple[str, dict[str, str]]] = []
    for line in text.splitlines():
        rule = re.fullmatch(r"(?:local)?rule (\S+):", line.strip())
        if rule:
            jobs.append((rule[1], {}))
            continue
        wildcards = re.fullmatch(r"\s+wildcards: (.*)", line)
        if wildcards and jobs:
            jobs[-1][1].update(kv.split("=", 1) for kv in wildcards[1].split(", "))
    return jobs


@dataclass
class Run:
    workdir: Path
    proc: subprocess.CompletedProcess

    def require_success(self) -> None:
        if self.proc.returncode != 0:
            pytest.fail("the default workflow run failed:\n" + explain(self.proc))

    def path(self, relative: str | Path) -> Path:
        return self.workdir / relative


def read_json(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))
