"""sbatch submissions of a SLURM run of the default: every job (before) vs only the jobs that
need a node, with data, inputs, per-run CPU scores, tables and figures as `localrules` (after).

Usage: python perf/slurm_submissions.py [--planned] [--configfile FILE ...] [--repeats 1]
                                        [--small] [--record]

1. Planned: the dry run's jobs per rule and the `localrules:` lines of the rule files. Before =
   every job but `all` and those of rules marked `localrule: True` in their body (`extract`);
   after = jobs of rules that are not local either way.
2. Real runs (unless --planned): the default through `--workflow-profile profiles/slurm` on
   the single-node test cluster (.ci/slurm-cluster; `sbatch` on PATH, a cluster answering
   `sinfo`, the SLURM plugin installed; without them it exits 1 saying which), as an A/B of
   two settings (perf/_ab.py; there is no bare SLURM alternative that runs the same jobs):
   A the checkout as it is (localrules), B a copy whose `localrules:` lines are removed
   (every job submitted), each in a fresh copy, alternating, wall seconds (the cost is
   queueing and polling, not CPU); min, median, ratio, and the sbatch submissions counted in
   Snakemake's output. ``--small`` (CI with the test cluster running): one FairTranslate
   translation of an offline system (data, inputs, translate, extract), one pair.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
import _ab  # noqa: E402 (perf/_ab.py: the A/B comparison)

SMALL_TARGETS = ["results/default/fairtranslate/translations/copy-source/baseline.jsonl"]
ENTRIES = ["Snakefile", "workflow", "config", "resources", "envs", "profiles", "src"]
SUBMITTED = re.compile(r"has been submitted with SLURM jobid (\d+)")


def snakemake_exe() -> str:
    beside = Path(sys.executable).parent / "snakemake"
    return str(beside) if beside.exists() else "snakemake"


def local_rules(root: Path) -> tuple[set[str], set[str]]:
    """Rules named on `localrules:` lines, and rules marked `localrule: True` in their body
    (those were local before this change too)."""
    listed: set[str] = set()
    marked: set[str] = set()
    for path in (root / "workflow" / "rules").glob("*.smk"):
        text = path.read_text(encoding="utf-8")
        for line in re.findall(r"^localrules:(.*)$", text, flags=re.M):
            listed.update(n.strip() for n in line.split(",") if n.strip())
        for name, body in re.findall(r"^rule (\w+):\n((?:[ \t]+.*\n|\n)*)", text, flags=re.M):
            if re.search(r"^\s+localrule:\s*True", body, flags=re.M):
                marked.add(name)
    return listed, marked


def job_stats(text: str) -> dict[str, int]:
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == "Job stats:")
    stats = {}
    for line in lines[start + 3:]:
        match = re.fullmatch(r"\s*(\S+)\s+(\d+)\s*", line)
        if not match:
            break
        stats[match[1]] = int(match[2])
    return stats


def copy_project(dest: Path, strip_localrules: bool) -> Path:
    dest.mkdir(parents=True)
    for name in ENTRIES:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            shutil.copy2(src, dest / name)
    if strip_localrules:
        for path in (dest / "workflow" / "rules").glob("*.smk"):
            path.write_text(re.sub(r"^localrules:.*\n", "", path.read_text(encoding="utf-8"),
                                   flags=re.M), encoding="utf-8")
    return dest


def planned(configfiles: list[str]) -> None:
    args = [snakemake_exe(), "-n", "--cores", "1"]
    if configfiles:
        args += ["--configfile", *configfiles]
    proc = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=600)
    if proc.returncode:
        raise SystemExit(f"the dry run failed (exit {proc.returncode}):\n"
                         f"{proc.stdout[-2000:]}{proc.stderr[-3000:]}")
    stats = job_stats(proc.stdout + proc.stderr)
    total = stats.pop("total")
    listed, marked = local_rules(ROOT)
    local = listed | marked
    before = sum(n for rule, n in stats.items() if rule not in marked and rule != "all")
    after = sum(n for rule, n in stats.items() if rule not in local and rule != "all")
    print(f"## Planned ({' '.join(configfiles) or 'the default'}): {total} jobs\n")
    print("| | sbatch submissions | jobs run locally |")
    print("|---|---:|---:|")
    print(f"| before (no `localrules:` lines) | {before} | {total - before} "
          f"(`all`, {', '.join(sorted(marked)) or 'none'}) |")
    print(f"| after (localrules) | {after} | {total - after} |")
    print("\nsubmitted after: " + ", ".join(
        f"{rule} {n}" for rule, n in stats.items() if rule not in local and rule != "all"))


def require_cluster() -> None:
    """Exit 1 with the cause where the real runs cannot run."""
    if shutil.which("sbatch") is None:
        raise SystemExit("SLURM is not installed here (no `sbatch` on PATH): .ci/slurm-cluster "
                         "install and start, as root; --planned counts without a cluster")
    if subprocess.run(["sinfo"], capture_output=True, timeout=30).returncode:
        raise SystemExit("no SLURM cluster answers `sinfo` (.ci/slurm-cluster start, as root)")


def real(targets: list[str], repeats: int) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GENDERMT_SLURM_")}
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    print(f"\n## Real runs of {' '.join(targets) or 'the default'} on the test cluster "
          "(.ci/slurm-cluster)\n")
    submitted: dict[str, set[int]] = {"gendermt": set(), "bare": set()}
    with tempfile.TemporaryDirectory() as tmp:
        runs = iter(range(10**6))

        def one(side: str, strip: bool) -> float:
            work = copy_project(Path(tmp) / f"{side}-{next(runs)}", strip_localrules=strip)
            t0 = time.perf_counter()
            proc = subprocess.run(
                [snakemake_exe(), "--workflow-profile", "profiles/slurm",
                 "--slurm-init-seconds-before-status-checks", "2", *targets],
                cwd=work, capture_output=True, text=True, timeout=3600, env=env)
            wall = time.perf_counter() - t0
            text = proc.stdout + proc.stderr
            if proc.returncode:
                raise _ab.SideFailed(side, f"the SLURM run failed (exit {proc.returncode}):\n"
                                           f"{text[-4000:]}")
            submitted[side].add(len(SUBMITTED.findall(text)))
            shutil.rmtree(work, ignore_errors=True)
            return wall

        _ab.compare(f"SLURM run, {' '.join(targets) or 'the default'}: localrules vs every "
                    "job submitted", lambda: one("gendermt", False), lambda: one("bare", True),
                    repeats, warmup=False, unit="wall seconds",
                    note="two settings: A the checkout, B no localrules lines")
    print(f"sbatch submissions: localrules {sorted(submitted['gendermt'])}, "
          f"without {sorted(submitted['bare'])}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    _ab.add_arguments(parser, repeats=1)
    parser.add_argument("--planned", action="store_true",
                        help="the planned submissions only (no cluster needed)")
    parser.add_argument("--real", action="store_true", help=argparse.SUPPRESS)  # the default
    parser.add_argument("--configfile", nargs="*", default=[])
    args = parser.parse_args(argv)
    if not args.planned:
        require_cluster()  # before the planning, so that a missing cluster fails at once
    planned(args.configfile)
    if not args.planned:
        real(SMALL_TARGETS if args.small else [], 1 if args.small else args.repeats)
    return _ab.finish("slurm_submissions", args)


if __name__ == "__main__":
    sys.exit(main())
