"""sbatch submissions of a SLURM run of the default: every job (before) vs only the jobs that
need a node, with data, inputs, per-run CPU scores, tables and figures as `localrules` (after).

Usage: python perf/slurm_submissions.py [--real] [--configfile FILE ...]

1. Planned: the dry run's jobs per rule and the `localrules:` lines of the rule files. Before =
   every job but `all` and those of rules marked `localrule: True` in their body (`extract`);
   after = jobs of rules that are not local either way.
2. --real: the default through `--workflow-profile profiles/slurm` on the single-node test
   cluster (.ci/slurm-cluster; it must answer `sinfo`, and the SLURM plugin must be installed),
   once as the checkout is (after) and once on a copy whose `localrules:` lines are removed
   (before): sbatch submissions counted in Snakemake's output, and the wall time.
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
        sys.exit(proc.stdout[-2000:] + proc.stderr[-3000:])
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


def real() -> None:
    if subprocess.run(["sinfo"], capture_output=True, timeout=30).returncode:
        sys.exit("no SLURM cluster answers `sinfo` (.ci/slurm-cluster start, as root)")
    env = {k: v for k, v in os.environ.items() if not k.startswith("GENDERMT_SLURM_")}
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    print("\n## Real runs of the default on the test cluster (.ci/slurm-cluster)\n")
    print("| | sbatch submissions | jobs | wall (s) |")
    print("|---|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for label, strip in (("before (no localrules)", True), ("after (localrules)", False)):
            work = copy_project(Path(tmp) / label.split()[0], strip_localrules=strip)
            t0 = time.perf_counter()
            proc = subprocess.run(
                [snakemake_exe(), "--workflow-profile", "profiles/slurm",
                 "--slurm-init-seconds-before-status-checks", "2"],
                cwd=work, capture_output=True, text=True, timeout=3600, env=env)
            wall = time.perf_counter() - t0
            text = proc.stdout + proc.stderr
            if proc.returncode:
                sys.exit(f"{label}: the run failed\n{text[-4000:]}")
            print(f"| {label} | {len(SUBMITTED.findall(text))} | "
                  f"{job_stats(text)['total']} | {wall:.0f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--real", action="store_true")
    parser.add_argument("--configfile", nargs="*", default=[])
    args = parser.parse_args()
    planned(args.configfile)
    if args.real:
        real()


if __name__ == "__main__":
    main()
