"""The embedded default run from scratch and its no-op rerun, against a bare Snakefile of the
same jobs whose every job is a ``script:`` job that only creates its outputs (issue 30).

Usage: python perf/default_run.py [--cores 2] [--targets FILE ...] [--repeats 1]
                                  [--small] [--record]
The job list is the project's own dry run (perf/startup.py: ``jobs_of``); B is built from it
(``bare_jobs``: one rule per job, the same input and output files, so the same jobs and edges)
with one ``script:`` per rule writing empty outputs (``{}`` for JSON): what Snakemake and a
Python start-up cost a job when the job does nothing.
1. A real run from scratch: A (gendermt) ``snakemake --cores N`` in a fresh copy of the
   project; B the bare Snakefile in a fresh folder. CPU seconds of Snakemake and every job
   it ran (``--repeats`` fresh pairs, no warm-up: a run from scratch is what is measured),
   and the CPU a job on each side.
2. The no-op rerun after those runs (the metadata a real run left): ``snakemake --cores N``
   on each side, which must find nothing to do; alternating after a warm-up, 3 pairs.
3. ``snakemake --report`` of A (no B: the bare side has no report), seconds and size.
min, median and ratio of each comparison (perf/_ab.py). The default run translates with the
default's small LLMs on CPU (minutes); ``--small`` (CI smoke runs) runs only GATE X-E's
tables (offline systems: its data, inputs, rewrites and tables), one pair each, no report.
Everything runs in temporary copies: the project's results/ and .snakemake/ are untouched.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
import _ab  # noqa: E402 (perf/_ab.py: the A/B comparison)
import startup  # noqa: E402 (perf/startup.py: the job list, the bare Snakefile)

SMALL_TARGETS = ["results/default/gate-x-e/tables/accuracy.csv"]
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    _ab.add_arguments(parser, repeats=1)
    parser.add_argument("--cores", default="2")
    parser.add_argument("--targets", nargs="*", default=[],
                        help="files to make (default: the whole default run)")
    args = parser.parse_args(argv)
    targets = SMALL_TARGETS if args.small and not args.targets else args.targets
    repeats = 1 if args.small else args.repeats
    what = " ".join(targets) or "the default"
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        _, dry = startup.cpu_of(["-n", *targets], startup.copy_project(tmp / "plan"))
        jobs = startup.jobs_of(dry)
        work = [j for j in jobs if j[0] != "all"]
        if not work:
            raise SystemExit(f"no jobs found in the project's dry run:\n{dry[-2000:]}")
        print(f"{what}: {len(work)} jobs")
        runs = iter(range(10**6))
        last: dict[str, Path] = {}

        def run_a() -> float:
            where = startup.copy_project(tmp / f"a-{next(runs)}")
            # the package's bytecode, which a checkout compiles once, not in every copy
            subprocess.run([sys.executable, "-m", "compileall", "-q", str(where / "src")],
                           check=True, capture_output=True)
            seconds, out = startup.cpu_of(["--cores", args.cores, *targets], where)
            last["a"] = where
            return seconds

        def run_b() -> float:
            where = startup.bare_jobs(jobs, tmp / f"b-{next(runs)}", action="script")
            seconds, out = startup.cpu_of(["--cores", args.cores], where)
            last["b"] = where
            return seconds

        run = _ab.compare(f"real run from scratch, {what}, {len(work)} jobs", run_a, run_b,
                          repeats, warmup=False, note="B: script: jobs that create outputs")
        print(f"  CPU a job: gendermt {min(run.a) / len(work):.2f} s, bare "
              f"{min(run.b) / len(work):.2f} s (best run)")

        def noop(side: str, extra: list[str]) -> float:
            seconds, out = startup.cpu_of(["--cores", args.cores, *extra], last[side])
            if "Nothing to be done" not in out:
                raise _ab.SideFailed("gendermt" if side == "a" else "bare",
                                     f"the no-op rerun would run jobs:\n{out[-3000:]}")
            return seconds

        _ab.compare(f"no-op rerun after a real run, {what}, {len(work)} jobs",
                    lambda: noop("a", targets), lambda: noop("b", []),
                    1 if args.small else 3, warmup=not args.small)
        if not (args.small or targets):
            report = last["a"] / "results" / "default" / "report.html"
            seconds, _ = startup.cpu_of(["--report", str(report)], last["a"])
            print(f"report: {seconds:.1f} CPU s, {report.stat().st_size / 1e6:.1f} MB")
    return _ab.finish("default_run", args)


if __name__ == "__main__":
    sys.exit(main())
