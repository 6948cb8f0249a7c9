"""What reruns is declared (issue 64): moving a module, adding a field to the benchmark
contract or a backend to the registry reruns nothing; bumping a stage's version reruns its
jobs; a results folder made by c0d773e (the last commit whose code params were import-following
fingerprints) reruns nothing after the upgrade, nor one made before the layout move (issue 54)
any translation.

Each plans with Snakemake in copies of the project, their own ``src/`` first on the path (the
jobs import the copy's package, not the checkout's).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import textwrap
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
#: the last commit whose code params were fingerprints of the modules a job imports
BEFORE_VERSIONS = "c0d773e5666b8668e5fa5d3b98d6bb4e213e3c39"


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


@pytest.fixture
def finished_copy(default_run, tmp_path) -> Path:
    default_run.require_success()
    workdir = tmp_path / "project"
    shutil.copytree(default_run.workdir, workdir, copy_function=shutil.copy2, symlinks=True)
    assert plan(workdir) == {}
    return workdir


def bump(workdir: Path, stage: str) -> None:
    """Raise a stage's declared version in the copy, as `tools/stage_lock.py bump` does."""
    lock = workdir / "src/gendermt/workflow/stage_versions.json"
    data = json.loads(lock.read_text(encoding="utf-8"))
    data["stages"][stage]["version"] += 1
    lock.write_text(json.dumps(data), encoding="utf-8")


def test_moving_a_module_reruns_nothing_a_bump_reruns_its_stage(finished_copy):
    workdir = finished_copy
    # the readers of delimited text: the data stages of GATE, GATE X-E, Neo-GATE and the
    # stored backend run it, upstream of every translation
    move_module(workdir / "src", "gendermt.data.textfiles", "gendermt.data.delimited_text")
    assert not (workdir / "src/gendermt/data/textfiles.py").exists()
    moved = workdir / "src/gendermt/data/delimited_text.py"
    moved.write_text(moved.read_text(encoding="utf-8") + "\n\nUNUSED = 1\n", encoding="utf-8")
    assert plan(workdir) == {}
    # the control: a bumped version reruns the jobs that name the stage, and what follows them
    bump(workdir, "gendermt.benchmarks.gate.tables")
    text = plan_text(workdir)
    own = {rule for rule, reason in planned_reasons(text) if not reason.startswith(FOLLOWS)}
    assert own == {"gate_tables"}, sorted(planned_reasons(text))


def test_a_contract_field_or_a_new_backend_reruns_nothing(finished_copy):
    """The two edits that replanned every job before versions were declared (issue 64): an
    unused field of the benchmark contract, one entry more in the backends' registry."""
    workdir = finished_copy
    for contract in workdir.glob("src/gendermt/*/contract.py"):
        text = contract.read_text(encoding="utf-8")
        anchor = "class Benchmark:\n"
        if anchor in text:
            # the last field of the class (fields with defaults close a dataclass)
            head, _, rest = text.partition(anchor)
            end = re.search(r"\n\n\n(?=\S)", rest)
            cut = end.start() if end else len(rest.rstrip())
            contract.write_text(head + anchor + rest[:cut]
                                + "\n    #: unused\n    unused_field: str = \"\"\n"
                                + rest[cut:], encoding="utf-8")
            break
    else:
        raise AssertionError("no contract.py defines class Benchmark")
    # a backend is a module of its own that declares itself (gendermt.core.backends)
    from ..unit.test_backend_declarations import TOY

    toy = workdir / "src/gendermt/translation/backends/toy_upper.py"
    toy.write_text(textwrap.dedent(TOY), encoding="utf-8")
    assert plan(workdir) == {}


def test_upgrading_a_c0d773e_results_folder_reruns_nothing(tmp_path):
    """The default run made by c0d773e, upgraded to this checkout as a pull does: nothing
    reruns but the run's summary (it records the commit)."""
    workdir = old_checkout(tmp_path, BEFORE_VERSIONS)
    env = {**os.environ, "PYTHONPATH": str(workdir / "src")}
    proc = subprocess.run([snakemake_exe(), "--cores", "2"], cwd=workdir, env=env,
                          capture_output=True, text=True)
    assert proc.returncode == 0, explain(proc)
    upgrade(workdir)
    assert set(plan(workdir)) <= {"run_summary", "total", "all"}


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
    workdir = old_checkout(tmp_path, BEFORE_THE_MOVE)
    # the old code's translations and what they are made from (its data and input stages)
    env = {**os.environ, "PYTHONPATH": str(workdir / "src")}
    proc = subprocess.run([snakemake_exe(), "--cores", "2", "--until", "translate"],
                          cwd=workdir, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, explain(proc)
    ran = set(job_stats(output_of(proc))) - {"total", "all"}
    assert {"translate", "build_inputs", "gate_data"} <= ran, ran
    upgrade(workdir)
    text = plan_text(workdir, "--until", "translate")
    own = {(rule, reason) for rule, reason in planned_reasons(text)
           if not all(part.startswith(FOLLOWS) for part in reason.split("; "))}
    assert not {rule for rule, _ in own} & {"translate", "build_inputs"}, sorted(own)
    # what reruns on its own account is a data stage whose code (a param: its fingerprint)
    # changed since the move
    assert all(rule.endswith("_data") and ("Params have changed" in reason
                                           or "Code has changed" in reason)
               for rule, reason in own), sorted(own)


def old_checkout(tmp_path: Path, commit: str) -> Path:
    """The project's files as ``commit`` had them, its request cache the session's (the test
    skips in a clone without that commit)."""
    known = subprocess.run(["git", "cat-file", "-e", f"{commit}^{{commit}}"], cwd=ROOT,
                           capture_output=True)
    if known.returncode != 0:
        pytest.skip(f"this clone lacks commit {commit[:12]} (a shallow clone?)")
    workdir = tmp_path / "project"
    workdir.mkdir()
    archive = subprocess.run(["git", "archive", commit, *PROJECT_ENTRIES], cwd=ROOT,
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(workdir)], input=archive, check=True)
    (workdir / "results").mkdir()
    (workdir / "results" / "cache").symlink_to(SHARED_CACHE, target_is_directory=True)
    return workdir


def upgrade(workdir: Path) -> None:
    """This checkout's files replace the old ones, as a pull does: a file it changes or adds
    is new (its time now), one it leaves keeps its time."""
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
