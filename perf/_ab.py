"""The A/B comparison every perf/ script shares (issue 30).

A is gendermt's way, B its bare alternative (the tool the issue names, the previous
implementation, or the obvious plain one). Both sides run in the same process or run,
alternating A, B, A, B, ... after one uncounted warm-up of each, so that a loaded machine slows
both alike; ``compare`` prints min and median of each side and the ratio of the medians::

    <label>: gendermt min 1.20 s median 1.25 s | bare min 1.00 s median 1.02 s | ratio 1.23x
    (3 alternating pairs, CPU seconds)

A side that fails stops the script with exit status 1 and a message naming the side and its
cause (``SideFailed`` is a ``SystemExit``). ``record`` adds each comparison to
``perf/results.json`` (with the date, the machine and the load average) when the script is run
with ``--record``; tools/gen_docs.py renders docs/performance.md's figures from that file,
so they are never typed by hand.
"""

from __future__ import annotations

import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results.json"


class SideFailed(SystemExit):
    """One side of a comparison failed: the script exits 1 naming the side and the cause."""

    def __init__(self, side: str, cause: str):
        super().__init__(f"{side} failed: {cause}")


@dataclass
class Comparison:
    label: str
    a: list[float]
    b: list[float]
    unit: str = "CPU seconds"
    note: str = ""
    extra: dict = field(default_factory=dict)

    @property
    def ratio(self) -> float:
        b = statistics.median(self.b)
        return statistics.median(self.a) / b if b else float("inf")

    def line(self) -> str:
        a, b = self.a, self.b
        unit = "s" if "seconds" in self.unit else self.unit
        return (f"{self.label}: gendermt min {num(min(a))} {unit} median "
                f"{num(statistics.median(a))} {unit} | bare min {num(min(b))} {unit} median "
                f"{num(statistics.median(b))} {unit} | ratio {self.ratio:.2f}x "
                f"({len(a)} alternating pairs, {self.unit}"
                f"{'; ' + self.note if self.note else ''})")


def num(x: float) -> str:
    """A figure without an exponent (the smoke tests read the lines)."""
    return f"{x:.4f}" if abs(x) < 1 else f"{x:.2f}" if abs(x) < 100 else f"{x:.0f}"


def cpu_seconds() -> float:
    """CPU seconds (user + system) of this process and its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def timed_call(side: str, fn: Callable[[], object]) -> float:
    """CPU seconds of ``fn()`` in this process; a failure names the side."""
    start = cpu_seconds()
    try:
        fn()
    except SystemExit:
        raise
    except Exception as exc:  # the side's own error, named
        raise SideFailed(side, f"{type(exc).__name__}: {exc}") from exc
    return cpu_seconds() - start


# What Snakemake's shell sets for a one-thread job: without it numpy's BLAS spreads over
# every core and spins, CPU that no job spends.
JOB_THREADS = {name: "1" for name in ("OMP_NUM_THREADS", "GOTO_NUM_THREADS",
                                      "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                                      "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS")}


def run_child(side: str, cmd: Sequence[str], cwd: Path | None = None,
              env: dict[str, str] | None = None, stdin: str | None = None
              ) -> tuple[float, str]:
    """CPU seconds (user + system) of one child process, and its stdout + stderr; a non-zero
    exit stops the script naming the side and showing the child's own message."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(list(cmd), cwd=cwd, capture_output=True, text=True,
                          env=env, input=stdin)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SideFailed(side, f"{' '.join(map(str, cmd))[:300]} (exit {proc.returncode}):\n"
                               f"{(proc.stderr + proc.stdout)[-4000:]}")
    seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, proc.stdout + proc.stderr


def compare(label: str, a: Callable[[], float], b: Callable[[], float], repeats: int,
            warmup: bool = True, unit: str = "CPU seconds", note: str = "") -> Comparison:
    """Alternate ``a()`` and ``b()`` (each returns its measurement) ``repeats`` times after
    one uncounted call of each; print and return the comparison."""
    if warmup:
        a()
        b()
    result = Comparison(label, [], [], unit, note)
    for _ in range(max(1, repeats)):
        result.a.append(a())
        result.b.append(b())
    print(result.line(), flush=True)
    COMPARISONS.append(result)
    return result


COMPARISONS: list[Comparison] = []


def machine() -> str:
    cpus = os.cpu_count()
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    except (ValueError, OSError):
        mem = 0
    return (f"{cpus} CPUs{' (' + model + ')' if model else ''}, {mem:.0f} GiB, "
            f"Python {platform.python_version()}, {platform.system()}")


def record(script: str, comparisons: Sequence[Comparison] | None = None,
           path: Path = RESULTS) -> None:
    """Replace ``script``'s entries in the results file with these comparisons (default:
    every one this process printed), dated, with the machine and its load."""
    comparisons = COMPARISONS if comparisons is None else comparisons
    data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    data[script] = {
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine(),
        "load_average": [round(x, 1) for x in os.getloadavg()],
        "comparisons": [{**{k: v for k, v in asdict(c).items() if k != "extra"},
                         "median_a": statistics.median(c.a),
                         "median_b": statistics.median(c.b), "ratio": round(c.ratio, 3),
                         **c.extra} for c in comparisons],
    }
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(path)


def add_arguments(parser, repeats: int = 3) -> None:
    """The options every perf/ script takes: --repeats, --small, --record."""
    parser.add_argument("--repeats", type=int, default=repeats,
                        help="alternating pairs after the warm-up")
    parser.add_argument("--small", action="store_true",
                        help="a smoke run (CI): small size, one pair, no timing asserted")
    parser.add_argument("--record", action="store_true",
                        help=f"write the comparisons to {RESULTS.name} (docs/performance.md)")


def finish(script: str, args) -> int:
    if getattr(args, "record", False) and not getattr(args, "small", False):
        record(script)
    return 0


def wall(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


if __name__ == "__main__":
    sys.exit("a module of perf/ scripts; run one of them")
