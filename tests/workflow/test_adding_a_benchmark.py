"""docs/adding-a-benchmark.md followed as written: every file it gives (a line ``File: <path>``
right above a fenced block) written into a copy of the project, then its commands run there
in order (the stage-version lock, ruff, ``snakemake --lint``, a dry run, the run, a second dry
run): each succeeds, the toy's table holds what its reference oracle gets right, the lock is
up to date and the second dry run has nothing to do. A wrong line of the page's code (a
stage left out of the lock command, a rule without its script, a misnamed column) fails one
of them."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from ..workflow_support import ROOT, RUN_TIMEOUT, copy_project, snakemake_exe

pytestmark = pytest.mark.workflow

PAGE = ROOT / "docs" / "adding-a-benchmark.md"
FILE_BLOCK = re.compile(r"^File: (?P<path>\S+)\n(?P<fence>```|~~~)[\w-]*\n(?P<body>.*?)"
                        r"^(?P=fence)[ \t]*$", re.M | re.S)
BASH_BLOCK = re.compile(r"^```bash\n(.*?)^```[ \t]*$", re.M | re.S)
# the page's tools, as this test session has them
TOOLS = {".venv/bin/python": sys.executable,
         ".venv/bin/snakemake": snakemake_exe(),
         ".venv/bin/ruff": str(Path(sys.executable).with_name("ruff"))}


def page_files(text: str) -> dict[str, str]:
    """path → content of every file the page gives."""
    files = {m["path"]: m["body"] for m in FILE_BLOCK.finditer(text)}
    assert files, f"{PAGE.name} gives no file (a line 'File: <path>' above a fenced block)"
    return files


def page_commands(text: str) -> list[list[str]]:
    """Every command line of the page's bash blocks, as argument lists."""
    lines = [line for block in BASH_BLOCK.findall(text) for line in block.splitlines()
             if line.strip() and not line.lstrip().startswith("#")]
    return [shlex.split(line) for line in lines]


def test_the_page_is_read_as_files_and_commands():
    text = PAGE.read_text(encoding="utf-8")
    files = page_files(text)
    assert {"src/gendermt/benchmarks/toy/contract.py", "src/gendermt/benchmarks/toy/rules.smk",
            "resources/toy/sample.tsv", "config/study/toy.yaml"} <= set(files)
    # the sample keeps its tabs
    assert files["resources/toy/sample.tsv"].splitlines()[0].split("\t")[0] == "id"
    commands = page_commands(text)
    assert [c[:3] for c in commands if c[0].endswith("python")][0] == [
        ".venv/bin/python", "-m", "tools.stage_lock"]
    assert [c for c in commands if c[0].endswith("snakemake") and "-n" not in c
            and "--lint" not in c], "the page runs no workflow"


@pytest.fixture(scope="module")
def followed(tmp_path_factory):
    """A copy of the project with the page followed: (project, [(command, its process)])."""
    project = copy_project(tmp_path_factory.mktemp("adding") / "project")
    for name in ("tools", "pyproject.toml"):  # the lock's command and ruff's settings
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, project / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(src, project / name)
    text = PAGE.read_text(encoding="utf-8")
    for path, body in page_files(text).items():
        target = project / path
        assert not (ROOT / path).exists() or path.startswith("docs/"), (
            f"the page's {path} would overwrite a file of the project")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(body, encoding="utf-8")
    done = []
    for command in page_commands(text):
        command = [TOOLS.get(command[0], command[0]), *command[1:]]
        if Path(command[0]).name == "ruff":
            # the page's folders that a copy of the project has (no tests/ nor perf/ here)
            command = [*command[:2], *(a for a in command[2:] if (project / a).exists())]
        proc = subprocess.run(command, cwd=project, capture_output=True, text=True,
                              timeout=RUN_TIMEOUT)
        done.append((command, proc))
        assert proc.returncode == 0, (
            f"the page's `{shlex.join(command)}` exited {proc.returncode}:\n"
            f"{(proc.stdout + proc.stderr)[-5000:]}")
    return project, done


def test_the_toy_runs_as_written(followed):
    project, done = followed
    table = pd.read_csv(project / "results/toy/toy/tables/accuracy.csv")
    # the reference oracle outputs the references, each of which has the gendered word
    assert sorted(table["gender"]) == ["f", "m"]
    assert (table["system"] == "toy-oracle").all() and (table["accuracy"] == 1.0).all()
    assert table["n"].sum() == 4
    assert (project / "results/toy/toy/tables/accuracy.md").stat().st_size > 0
    # the lock names the toy's stages and scripts, at version 1
    lock = (project / "src/gendermt/workflow/stage_versions.json").read_text(encoding="utf-8")
    for stage in ("gendermt.benchmarks.toy.data", "gendermt.benchmarks.toy.tables"):
        assert f'"{stage}": {{"version": 1,' in lock, stage
    assert "src/gendermt/benchmarks/toy/scripts/tables.py" in lock


def test_a_second_dry_run_has_nothing_to_do(followed):
    _, done = followed
    runs = [i for i, (command, _) in enumerate(done)
            if Path(command[0]).name == "snakemake" and "-n" not in command
            and "--lint" not in command]
    after = [proc for command, proc in done[runs[-1] + 1:]
             if Path(command[0]).name == "snakemake" and "-n" in command]
    assert after, "the page has no dry run after its run"
    assert "Nothing to be done" in after[-1].stdout + after[-1].stderr, (
        (after[-1].stdout + after[-1].stderr)[-3000:])


def test_the_lock_check_fails_without_the_pages_lock_command(followed, tmp_path):
    """The page's lock command is needed: without it `stage_lock check` names the toy."""
    project, _ = followed
    lock = project / "src/gendermt/workflow/stage_versions.json"
    before = lock.read_text(encoding="utf-8")
    try:
        shutil.copy2(ROOT / "src/gendermt/workflow/stage_versions.json", lock)
        proc = subprocess.run([sys.executable, "-m", "tools.stage_lock", "check"],
                              cwd=project, capture_output=True, text=True, timeout=RUN_TIMEOUT)
    finally:
        lock.write_text(before, encoding="utf-8")
    assert proc.returncode == 1
    assert "gendermt.benchmarks.toy.data: a stage with no declared version" in proc.stdout
