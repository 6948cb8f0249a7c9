"""Fingerprints follow content, not paths (issue 54): moving a module reruns nothing, and an
existing results folder made before the layout move reruns no translation after it.

Both plan with Snakemake in copies of the project, their own ``src/`` first on the path (the
jobs import the copy's package, not the checkout's).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from ..conftest import ROOT
from ..workflow_support import (
    PROJECT_ENTRIES,
    SHARED_CACHE,
    copy_project,
    explain,
    job_stats,
    output_of,
    snakemake_exe,
)

#: the layout move's parent: the last commit whose fingerprints named modules by their paths
BEFORE_THE_MOVE = "0f5f3f3c8622f62d61a9310438717feb0a91d158"


#: the reason Snakemake gives a job that reruns only because a job upstream of it reruns
FOLLOWS = "Input files updated by another job"


def plan_text(workdir: Path, *args: str) -> str:
    """A dry run's output, with the copy's package first on the path."""
    env = {**os.environ, "PYTHONPATH": str(workdir / "src")}
    proc = subprocess.run([snakemake_exe(), "-n", "--cores", "2", *args], cwd=workdir, env=env,
                          capture_output=True, text=True)
    assert proc.returncode == 0, explain(proc)
    return output_of(proc)


def plan(workdir: Path, *args: str) -> dict[str, int]:
    """The jobs a dry run plans, {rule: count}."""
    text = plan_text(workdir, *args)
    return {} if "Nothing to be done" in text else job_stats(text)


def planned_reasons(text: str) -> list[tuple[str, str]]:
    """(rule, reason) of each job a dry run lists."""
    jobs: list[tuple[str, str]] = []
    rule = None
    for line in text.splitlines():
        start = re.fullmatch(r"(?:local)?rule (\S+):", line.strip())
        if start:
            rule = start[1]
            continue
        reason = re.fullmatch(r"\s+reason: (.*)", line)
        if reason and rule is not None:
            jobs.append((rule, reason[1]))
            rule = None
    return jobs


def move_module(src: Path, old: str, new: str) -> None:
    """Rename module ``old`` (dotted) to ``new`` in the package under ``src``, rewriting every
    import and dotted name that names it, as a developer's move would."""
    old_file = src.joinpath(*old.split(".")).with_suffix(".py")
    old_file.rename(src.joinpath(*new.split(".")).with_suffix(".py"))
    old_parent, _, old_leaf = old.rpartition(".")
    new_parent, _, new_leaf = new.rpartition(".")
    for path in [*src.rglob("*.py"), *src.rglob("*.smk"), *src.parent.glob("workflow/**/*.*")]:
        if path.suffix not in (".py", ".smk"):
            continue
        text = path.read_text(encoding="utf-8")
        moved = re.sub(rf"\b{re.escape(old)}\b", new, text)
        moved = re.sub(rf"from {re.escape(old_parent)} import {old_leaf}\b",
                       f"from {new_parent} import {new_leaf} as {old_leaf}", moved)
        if moved != text:
            path.write_text(moved, encoding="utf-8")


def test_moving_a_module_reruns_nothing(default_run, tmp_path):
    default_run.require_success()
    workdir = tmp_path / "project"
    shutil.copytree(default_run.workdir, workdir, copy_function=shutil.copy2, symlinks=True)
    assert plan(workdir) == {}
    # the readers of delimited text: the data stages of GATE, GATE X-E, Neo-GATE and the
    # stored backend run it, upstream of every translation
    move_module(workdir / "src", "gendermt.data.textfiles", "gendermt.data.delimited_text")
    assert not (workdir / "src/gendermt/data/textfiles.py").exists()
    assert plan(workdir) == {}
    # the control: a change to what the module does reruns the stages that run it
    moved = workdir / "src/gendermt/data/delimited_text.py"
    moved.write_text(moved.read_text(encoding="utf-8") + "\n\nUNUSED = 1\n", encoding="utf-8")
    rerun = plan(workdir)
    assert "gate_data" in rerun, rerun


def walk(path: Path) -> list[Path]:
    """The files under ``path`` (or ``path`` itself)."""
    if path.is_file():
        return [path]
    return [p for p in path.rglob("*") if p.is_file() and not p.is_symlink()]


def test_upgrading_across_the_layout_move_reruns_no_translation(tmp_path):
    """Results made by the code before the move (its translations and everything upstream of
    them) stay current after upgrading to this checkout: no translation is redone on its own
    account (its code, params and set of inputs are those it had). A stage upstream whose
    code changed after the move (issue 51: the data stages hash what they read, and check
    the subset columns) reruns, and the translations follow it only as its dependents,
    answered from the request cache."""
    known = subprocess.run(["git", "cat-file", "-e", f"{BEFORE_THE_MOVE}^{{commit}}"], cwd=ROOT,
                           capture_output=True)
    if known.returncode != 0:
        pytest.skip(f"this clone lacks commit {BEFORE_THE_MOVE[:12]} (a shallow clone?)")
    workdir = tmp_path / "project"
    workdir.mkdir()
    archive = subprocess.run(["git", "archive", BEFORE_THE_MOVE, *PROJECT_ENTRIES], cwd=ROOT,
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(workdir)], input=archive, check=True)
    (workdir / "results").mkdir()
    (workdir / "results" / "cache").symlink_to(SHARED_CACHE, target_is_directory=True)
    # the old code's translations and what they are made from (its data and input stages)
    env = {**os.environ, "PYTHONPATH": str(workdir / "src")}
    proc = subprocess.run([snakemake_exe(), "--cores", "2", "--until", "translate"],
                          cwd=workdir, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, explain(proc)
    ran = set(job_stats(output_of(proc))) - {"total", "all"}
    assert {"translate", "build_inputs", "gate_data"} <= ran, ran
    # upgrade: this checkout's files replace the old ones, as a pull across the move does: a
    # file it changes or adds is new (its time now), one it leaves keeps its time
    before = {p.relative_to(workdir): (p.read_bytes(), p.stat().st_mtime_ns)
              for name in PROJECT_ENTRIES for p in walk(workdir / name)}
    for name in PROJECT_ENTRIES:
        target = workdir / name
        if target.is_dir():
            shutil.rmtree(target)
        elif target.exists():
            target.unlink()
    copy_project(workdir, share_cache=False)
    for path in (p for name in PROJECT_ENTRIES for p in walk(workdir / name)):
        old = before.get(path.relative_to(workdir))
        if old is not None and old[0] == path.read_bytes():
            os.utime(path, ns=(old[1], old[1]))
        else:
            path.touch()
    text = plan_text(workdir, "--until", "translate")
    own = {(rule, reason) for rule, reason in planned_reasons(text)
           if not all(part.startswith(FOLLOWS) for part in reason.split("; "))}
    assert not {rule for rule, _ in own} & {"translate", "build_inputs"}, sorted(own)
    # what reruns on its own account is a data stage whose code (a param: its fingerprint)
    # changed since the move
    assert all(rule.endswith("_data") and ("Params have changed" in reason
                                           or "Code has changed" in reason)
               for rule, reason in own), sorted(own)
