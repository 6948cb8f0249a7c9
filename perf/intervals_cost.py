"""What the intervals stages (issue 48) add to a study: CPU against the study's own, and peak
memory against the number of resamples.

Usage: python perf/intervals_cost.py [--results results/public] [--repeats 3]
       [--resamples 1000,4000,16000] [--small] [--record]

A (gendermt): each benchmark's ``*_intervals`` job as Snakemake runs it, a fresh process
(imports included) with one BLAS thread, on the results folder's per-item files (WinoMT: the
headline reader's per-sentence tables; MT-GenEval: the per-segment decisions; GATE: the
translations; GATE X-E: the scored rewrites), writing its tables to a temporary folder.
B (the study): the CPU the results folder's recorded jobs took (``benchmarks/**/*.tsv``,
``cpu_time``: translation and scoring jobs). B leaves out the jobs Snakemake does not time
(tables, figures, the report), so A / B over-states the share the intervals add: the target
is at most 15 %.

Memory: the WinoMT job (the largest: 3,888 sentences × 5 systems × 3 languages) at each
``--resamples``, its peak RSS (ru_maxrss): the draws are chunked (at most
gendermt.analysis.resample.MAX_CELLS indices at a time) and only each system's vector of
resampled figures is kept, so the peak should stay flat as resamples grow.
``--small``: one repeat, resamples 200 and 400.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
import _ab  # noqa: E402 (perf/_ab.py: the A/B comparison)

CHILD = r"""
import glob, json, resource, sys, time
from pathlib import Path
clock = time.process_time
bench, results, out, resamples = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3]), int(sys.argv[4])
boot = {"resamples": resamples, "seed": 0, "level": 0.95}
outputs = {"intervals": out / "intervals.csv", "pairs": out / "pairs.csv"}


def records(pattern, key="prompt"):
    return [{"system": Path(p).parent.name, key: Path(p).name.split(".")[0], "path": p}
            for p in sorted(glob.glob(str(results / pattern)))]


if bench == "winomt":
    from gendermt.benchmarks.winomt.intervals import build_intervals
    build_intervals(records("winomt/gender/corrected/*/*.parquet", "lang"), outputs, boot)
elif bench == "mt-geneval":
    from gendermt.benchmarks.mt_geneval.intervals import build_intervals
    # with bleu_all, as the rule runs it where BLEU is a metric (sacrebleu's defaults here)
    build_intervals(records("mt-geneval/items/*/*.parquet"), outputs, boot,
                    results / "mt-geneval" / "data.parquet")
elif bench == "gate":
    from gendermt.benchmarks.gate.intervals import build_intervals
    build_intervals(results / "gate" / "data.parquet", records("gate/translations/*/*.jsonl"),
                    outputs, boot)
elif bench == "gate-x-e":
    from gendermt.benchmarks.gate_x_e.intervals import build_intervals
    build_intervals(records("gate-x-e/rewrites/*/*.parquet"), outputs, boot)
else:
    sys.exit(f"unknown benchmark {bench}")
print(json.dumps({"maxrss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

BENCHMARKS = ("winomt", "mt-geneval", "gate", "gate-x-e")


def job(bench: str, results: Path, resamples: int) -> tuple[float, float]:
    """CPU seconds and peak RSS (MiB) of one intervals job in a fresh process."""
    env = {**os.environ, **_ab.JOB_THREADS,
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "src"),
                                                       os.environ.get("PYTHONPATH")]))}
    with tempfile.TemporaryDirectory() as tmp:
        seconds, output = _ab.run_child(bench, [sys.executable, "-c", CHILD, bench,
                                                str(results), tmp, str(resamples)], env=env)
    last = [line for line in output.splitlines() if line.startswith("{")][-1]
    return seconds, json.loads(last)["maxrss_mib"]


def study_cpu(results: Path) -> tuple[float, int]:
    """Σ cpu_time of the results folder's recorded jobs, and how many."""
    total, jobs = 0.0, 0
    for path in (results / "benchmarks").glob("**/*.tsv"):
        with path.open(encoding="utf-8") as handle:
            for row in csv.DictReader(handle, delimiter="\t"):
                try:
                    total += float(row["cpu_time"])
                    jobs += 1
                except (KeyError, TypeError, ValueError):
                    continue
    return total, jobs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", default=str(ROOT / "results" / "public"),
                        help="a finished results folder (read only)")
    parser.add_argument("--resamples", default="1000,4000,16000",
                        help="comma-separated resamples for the memory curve")
    _ab.add_arguments(parser, repeats=3)
    args = parser.parse_args()
    results = Path(args.results)
    present = [b for b in BENCHMARKS if (results / b).is_dir()]
    if not present:
        sys.exit(f"{results}: none of {', '.join(BENCHMARKS)} is there")
    repeats = 1 if args.small else max(1, args.repeats)
    study, jobs = study_cpu(results)
    if not jobs:
        sys.exit(f"{results}/benchmarks: no recorded jobs (cpu_time) to compare with")
    per_bench = {}
    for bench in present:
        runs = [job(bench, results, 1000 if not args.small else 200)[0] for _ in range(repeats)]
        per_bench[bench] = statistics.median(runs)
        print(f"{bench}_intervals: CPU median {_ab.num(per_bench[bench])} s "
              f"(min {_ab.num(min(runs))} s, {repeats} runs)", flush=True)
    added = sum(per_bench.values())
    share = 100 * added / study
    print(f"intervals stages: {_ab.num(added)} CPU s against the study's {jobs} recorded jobs' "
          f"{_ab.num(study)} CPU s: {share:.1f} % (target ≤ 15 %; the study's untimed jobs "
          "make the true share smaller)", flush=True)
    result = _ab.Comparison("intervals stages vs the study's recorded jobs",
                            list(per_bench.values()), [study], note="A: Σ of the four "
                            "stages' medians, per stage in extra; B: Σ cpu_time of "
                            "benchmarks/**/*.tsv",
                            extra={"share_percent": round(share, 2),
                                   "per_stage": {k: round(v, 3) for k, v in per_bench.items()}})
    _ab.COMPARISONS.append(result)
    if "winomt" in present:
        sizes = [200, 400] if args.small else [int(x) for x in args.resamples.split(",") if x]
        curve = {}
        for resamples in sizes:
            seconds, rss = job("winomt", results, resamples)
            curve[resamples] = rss
            print(f"winomt_intervals at {resamples} resamples: peak RSS {rss:.0f} MiB, "
                  f"CPU {_ab.num(seconds)} s", flush=True)
        growth = curve[sizes[-1]] / curve[sizes[0]]
        print(f"peak RSS {sizes[-1]} vs {sizes[0]} resamples: {growth:.2f}x "
              f"({sizes[-1] // sizes[0]}x the resamples)", flush=True)
        _ab.COMPARISONS.append(_ab.Comparison(
            "winomt_intervals peak RSS vs resamples", [curve[sizes[-1]]], [curve[sizes[0]]],
            unit="MiB", note=f"A: {sizes[-1]} resamples, B: {sizes[0]}",
            extra={"peak_rss_mib": {str(k): round(v, 1) for k, v in curve.items()}}))
    return _ab.finish("intervals_cost", args)


if __name__ == "__main__":
    sys.exit(main())
