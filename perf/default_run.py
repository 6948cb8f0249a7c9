"""Wall time and DAG size of the embedded default, from scratch and as a no-op rerun.

Usage: python perf/default_run.py [--cores 2]
Copies the workflow to a temporary folder, so the project's own results/ are untouched.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from scale import copy_project, snakemake, total_jobs  # perf/scale.py, beside this file


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cores", default="2")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = copy_project(Path(tmp) / "project")
        dag_s, out = snakemake("-n", "--cores", args.cores, cwd=work)
        jobs = total_jobs(out)
        run_s, _ = snakemake("--cores", args.cores, cwd=work)
        noop_s, out = snakemake("--cores", args.cores, cwd=work)
        assert "Nothing to be done" in out
        report_s, _ = snakemake("--report", "results/default/report.html", cwd=work)
        print(f"jobs in the DAG:          {jobs}")
        print(f"dry run (DAG build):      {dag_s:.1f} s")
        print(f"default run from scratch: {run_s:.1f} s on {args.cores} cores")
        print(f"no-op rerun:              {noop_s:.1f} s")
        print(f"report:                   {report_s:.1f} s, "
              f"{(work / 'results/default/report.html').stat().st_size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
