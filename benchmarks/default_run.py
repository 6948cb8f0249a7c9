"""Wall time and DAG size of the embedded default, from scratch and as a no-op rerun.

Usage: python benchmarks/default_run.py [--cores 2]
Copies the workflow to a temporary folder, so the project's own results/ are untouched.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COPY = ["Snakefile", "workflow", "config", "resources", "envs", "profiles", "src"]


def snakemake(*args: str, cwd: Path) -> tuple[float, str]:
    exe = Path(sys.executable).parent / "snakemake"
    start = time.perf_counter()
    out = subprocess.run([str(exe), *args], cwd=cwd, capture_output=True, text=True, check=True)
    return time.perf_counter() - start, out.stdout + out.stderr


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cores", default="2")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for name in COPY:
            src = ROOT / name
            if src.is_dir():
                shutil.copytree(src, work / name, ignore=shutil.ignore_patterns("__pycache__"))
            else:
                shutil.copy2(src, work / name)
        dag_s, out = snakemake("-n", "--cores", args.cores, cwd=work)
        jobs = int(re.search(r"^total\s+(\d+)", out, flags=re.M).group(1))
        run_s, _ = snakemake("--cores", args.cores, cwd=work)
        noop_s, out = snakemake("--cores", args.cores, cwd=work)
        assert "Nothing to be done" in out
        report_s, _ = snakemake("--report", "results/report.html", cwd=work)
        print(f"jobs in the DAG:          {jobs}")
        print(f"dry run (DAG build):      {dag_s:.1f} s")
        print(f"default run from scratch: {run_s:.1f} s on {args.cores} cores")
        print(f"no-op rerun:              {noop_s:.1f} s")
        print(f"report:                   {report_s:.1f} s, "
              f"{(work / 'results/report.html').stat().st_size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
