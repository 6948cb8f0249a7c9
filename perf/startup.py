"""Fixed start-up of every ``snakemake`` call, against a bare Snakefile (issue 30).

Usage: python perf/startup.py [--repeats 5] [--small] [--project DIR]

Two workloads, each timed as CPU seconds of the child process (user + system), alternating
the project (A) and its bare alternative (B) in one run, so that a loaded machine slows both
alike; prints min and median of each side and the ratio of the medians (A / B):

- ``snakemake --list-rules``: the project against a Snakefile with the same rule names, each
  a rule that only touches its output.
- ``snakemake -n`` (dry run, from scratch): the project against a Snakefile built from the
  project's own job list (one rule per job, the same output and input files, so the same jobs
  and edges; each job a ``script:`` that only creates its outputs, as the project's jobs are
  ``script:`` jobs; ``--bare none``: no action, rounds 2-7's bare side), its source files
  present and empty.

Everything runs in temporary copies; the project's results/ and .snakemake/ are untouched.
The first run of each side is a warm-up (Python's bytecode, gendermt's start-up cache) and is
not counted. ``--small`` (CI smoke runs) times one pair of each.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COPY = ["Snakefile", "workflow", "config", "resources", "envs", "profiles", "src"]
SNAKEMAKE = str(Path(sys.executable).parent / "snakemake")
sys.path.insert(0, str(Path(__file__).resolve().parent))
import _ab  # noqa: E402 (perf/_ab.py: the A/B comparison)


def copy_project(dest: Path, root: Path = ROOT) -> Path:
    dest.mkdir(parents=True)
    for name in COPY:
        src = root / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(src, dest / name)
    return dest


# Snakemake's touch executor sleeps 0.1 s before each job's touch (for distinct mtimes):
# 23 s of idle wall time per side for the default, 500 s for 5,000 jobs. Here the outputs
# already have distinct, ordered mtimes (materialise), and the touches run in DAG order.
TOUCH_SNAKEMAKE = [sys.executable, "-c", "import sys; import snakemake.executors.touch as t; "
                   "t.Executor.SLEEPING_TIME = 0; from snakemake.cli import main; "
                   "sys.argv[0] = 'snakemake'; sys.exit(main())"]


def cpu_of(args: list[str], cwd: Path, command: list[str] | None = None) -> tuple[float, str]:
    """CPU seconds (user + system) of one snakemake call (``command``: another way to start
    it) and its output; exits naming the side and showing Snakemake's own error when the
    call fails."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    env = {**os.environ, "PYTHONPATH": str(cwd / "src") if (cwd / "src").is_dir() else ""}
    out = subprocess.run([*(command or [SNAKEMAKE]), *args], cwd=cwd, capture_output=True,
                         text=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode != 0:
        raise SystemExit(f"snakemake {' '.join(args)} in {cwd} failed (exit {out.returncode}):"
                         f"\n{(out.stderr + out.stdout)[-4000:]}")
    seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, out.stdout + out.stderr


def jobs_of(dry_run: str) -> list[tuple[str, list[str], list[str]]]:
    """(rule, inputs, outputs) of each job a dry run prints."""
    jobs = []
    for block in re.split(r"^(?:local)?rule ", dry_run, flags=re.M)[1:]:
        name = block.split(":", 1)[0].strip()
        fields = dict(re.findall(r"^\s+(input|output): (.*)$", block, flags=re.M))
        if "output" not in fields and name != "all":
            continue
        jobs.append((name, _files(fields.get("input", "")), _files(fields.get("output", ""))))
    return jobs


def _files(text: str) -> list[str]:
    return [f.strip() for f in text.split(",") if f.strip()]


def bare_rules(names: list[str], dest: Path) -> Path:
    """A Snakefile with the project's rule names, each touching one file."""
    dest.mkdir(parents=True)
    text = "".join(f'rule {n}:\n    output: "out/{n}"\n    shell: "touch {{output}}"\n\n'
                   for n in names)
    (dest / "Snakefile").write_text(text)
    return dest


#: The ``script:`` of a bare job: it creates its outputs (empty; ``{}`` for JSON), nothing else.
MAKE_OUTPUTS = """from pathlib import Path

for name in snakemake.output:  # noqa: F821 (Snakemake's script: object)
    path = Path(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{}\\n" if name.endswith(".json") else "", encoding="utf-8")
"""
#: What a bare job does: ``script`` (the issue's bare alternative: each job a ``script:`` job
#: that only creates its outputs, as the project's jobs are ``script:`` jobs) or ``none``
#: (no action: rounds 2-7's bare side, which skips Snakemake's own work for a script job).
BARE_ACTIONS = ("script", "none")


def bare_jobs(jobs: list[tuple[str, list[str], list[str]]], dest: Path,
              action: str = "script") -> Path:
    """A Snakefile of the same jobs (one rule each), files and edges; sources present;
    each job a ``script:`` that creates its outputs, or (``action="none"``) no action."""
    if action not in BARE_ACTIONS:
        raise ValueError(f"bare action {action!r}: one of {', '.join(BARE_ACTIONS)}")
    dest.mkdir(parents=True)
    made = {f for _, _, outs in jobs for f in outs}
    # A dry run checks that each script job's script exists (Snakemake's script processor:
    # about 0.1 s of CPU for the default's 232 jobs), whatever the script does: the bare side
    # pays it too. Never a `shell:` action: Snakemake formats a shell command with a copy of
    # the Snakefile's globals, where every rule is a name, so one rule per job would make the
    # bare side quadratic in the jobs. Outputs for a no-op rerun come from ``materialise``.
    do = '    script: "make_outputs.py"\n' if action == "script" else ""
    lines, targets = [], []
    for n, (name, inputs, outputs) in enumerate(jobs):
        if name == "all":
            targets = inputs
            continue
        lines.append(f"rule {name}_{n}:\n    input: {inputs!r}\n    output: {outputs!r}\n{do}")
        for f in inputs:
            # a source outside the copy (an absolute path: a GGUF model in site-packages or
            # the GGUF cache) is used where it is, never touched: touching it would rerun
            # every job of the real project that reads it
            if f not in made and not Path(f).is_absolute():
                (dest / f).parent.mkdir(parents=True, exist_ok=True)
                (dest / f).touch()
    text = f"rule all:\n    input: {targets or sorted(made)!r}\n\n" + "\n".join(lines)
    (dest / "Snakefile").write_text(text)
    if action == "script":
        (dest / "make_outputs.py").write_text(MAKE_OUTPUTS, encoding="utf-8")
    return dest


def bare_label(action: str) -> str:
    """The bare side's kind in a comparison's label: recorded figures of the two kinds are
    never mistaken for each other."""
    return " (bare: script jobs)" if action == "script" else " (bare: no action)"


def add_bare_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bare", choices=BARE_ACTIONS, default="script",
                        help="what each job of the bare Snakefile does: a script: that "
                             "creates its outputs (default, as the project's jobs are script: "
                             "jobs) or nothing (rounds 2-7's bare side)")


def topological(jobs: list[tuple[str, list[str], list[str]]]
                ) -> list[tuple[str, list[str], list[str]]]:
    """The jobs, each after the jobs that make its inputs."""
    producer = {f: k for k, (_, _, outs) in enumerate(jobs) for f in outs}
    done: set[int] = set()
    order: list[int] = []
    for root in range(len(jobs)):
        stack = [(root, False)]
        while stack:
            k, expanded = stack.pop()
            if k in done:
                continue
            if expanded:
                done.add(k)
                order.append(k)
                continue
            stack.append((k, True))
            stack.extend((producer[f], False) for f in jobs[k][1]
                         if f in producer and producer[f] not in done)
    return [jobs[k] for k in order]


def materialise(jobs: list[tuple[str, list[str], list[str]]], where: Path) -> None:
    """Every job's outputs as empty files, each newer than its inputs (as after a run; the
    sources older than all of them), for a no-op rerun after ``snakemake --touch
    --forceall`` has recorded the jobs' metadata."""
    made = {f for _, _, outs in jobs for f in outs}
    start = time.time() - 60 - len(jobs) * 0.01
    for _, inputs, _ in jobs:
        for f in inputs:
            # sources inside the copy only (not ../shared, not absolute model paths)
            if (f not in made and not Path(f).is_absolute() and not f.startswith("..")
                    and (where / f).is_file()):
                os.utime(where / f, (start - 1, start - 1))
    for rank, (_, _, outputs) in enumerate(topological(jobs)):
        for f in outputs:
            path = where / f
            path.parent.mkdir(parents=True, exist_ok=True)
            # JSON outputs as an empty object: planning reads some back (the run summary)
            path.write_text("{}\n" if f.endswith(".json") else "", encoding="utf-8")
            os.utime(path, (start + rank * 0.01, start + rank * 0.01))


def compare(label: str, a: tuple[list[str], Path], b: tuple[list[str], Path],
            repeats: int) -> float:
    """CPU seconds of snakemake ``a`` against ``b``, alternating (perf/_ab.py)."""
    return _ab.compare(label, lambda: cpu_of(*a)[0], lambda: cpu_of(*b)[0], repeats).ratio


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    _ab.add_arguments(parser, repeats=5)
    parser.add_argument("--project", type=Path, default=ROOT,
                        help="the checkout to measure (default: this one), e.g. an older commit")
    add_bare_argument(parser)
    args = parser.parse_args(argv)
    repeats = 1 if args.small else args.repeats
    with tempfile.TemporaryDirectory() as tmp:
        project = copy_project(Path(tmp) / "project", args.project)
        _, listed = cpu_of(["--list-rules"], project)
        names = [n for n in listed.split() if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", n)]
        _, dry = cpu_of(["-n"], project)
        jobs = jobs_of(dry)
        if not jobs:
            raise SystemExit(f"no jobs found in the project's dry run:\n{dry[-2000:]}")
        rules = bare_rules(names, Path(tmp) / "bare-rules")
        graph = bare_jobs(jobs, Path(tmp) / "bare-jobs", action=args.bare)
        _, bare_dry = cpu_of(["-n"], graph)
        planned = re.search(r"^total\s+(\d+)", bare_dry, flags=re.M)
        if not planned or int(planned.group(1)) != len(jobs):
            raise SystemExit(f"the bare Snakefile plans {planned and planned.group(1)} jobs, "
                             f"not the project's {len(jobs)}:\n{bare_dry[-2000:]}")
        print(f"project: {len(names)} rules, {len(jobs)} jobs in the dry run")
        compare("snakemake --list-rules", (["--list-rules"], project),
                (["--list-rules"], rules), repeats)
        compare(f"snakemake -n (dry run){bare_label(args.bare)}", (["-n"], project),
                (["-n"], graph), repeats)
    return _ab.finish("startup", args)


if __name__ == "__main__":
    sys.exit(main())
