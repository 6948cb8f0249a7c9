"""How long `make test-fast` takes: its pytest command, timed (issue 64).

Usage: python perf/test_fast.py [--cores N]

Runs the pytest command of the Makefile's ``test-fast`` target (read from the Makefile, so
that it times what `make test-fast` runs, with ``$(BIN)`` the bin folder of this Python and
``$(CORES)`` the Makefile's default or ``--cores``) in the project, and prints its wall and
CPU seconds (the children's user + system), the machine's load averages before and after
and its core count, against the target: 2 minutes on a quiet machine with 2 cores
(docs/developing.md, "Environment"). A load average over the core count before the run says
the figure is not a quiet one. Exit status: pytest's (the timing is printed either way).
Not a test: no test runs it (it runs the whole fast tier).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shlex
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: `make test-fast` on a quiet machine with 2 cores (docs/developing.md), seconds
TARGET_SECONDS = 120.0


def makefile_command(cores: int | None) -> list[str]:
    """The ``test-fast`` target's recipe (its continuation lines joined), as arguments."""
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    match = re.search(r"^test-fast:[^\n]*\n((?:\t[^\n]*\n)+)", text, re.M)
    if match is None:
        raise SystemExit("perf/test_fast.py: the Makefile has no test-fast target")
    recipe = " ".join(line.strip().rstrip("\\") for line in match[1].splitlines())
    default = re.search(r"^CORES\s*\?=\s*(\d+)", text, re.M)
    values = {"BIN": str(Path(sys.executable).parent),
              "CORES": str(cores or (default and default[1]) or os.cpu_count())}
    return shlex.split(re.sub(r"\$\((\w+)\)", lambda m: values[m[1]], recipe))


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python perf/test_fast.py", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cores", type=int, help="pytest-xdist workers (the Makefile's CORES)")
    args = parser.parse_args(argv)
    command = makefile_command(args.cores)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"),
                                                      env.get("PYTHONPATH")]))
    load_before, cpu_before, start = os.getloadavg(), children_cpu(), time.perf_counter()
    proc = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    wall, cpu = time.perf_counter() - start, children_cpu() - cpu_before
    load_after = os.getloadavg()
    summary = (proc.stdout.strip().splitlines() or [""])[-1]
    cores = os.cpu_count() or 1
    result = {
        "command": shlex.join(command),
        "exit_status": proc.returncode,
        "pytest": summary,
        "wall_seconds": round(wall, 1),
        "cpu_seconds": round(cpu, 1),
        "cores": cores,
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in load_after],
        "target_seconds": TARGET_SECONDS,
        "within_target": wall <= TARGET_SECONDS,
        "quiet": load_before[0] <= cores,
    }
    print(json.dumps(result, indent=2))
    if not result["quiet"]:
        print(f"load {load_before[0]:.2f} over {cores} cores before the run: not a quiet "
              "figure", file=sys.stderr)
    if proc.returncode:
        print(proc.stdout[-3000:] + proc.stderr[-3000:], file=sys.stderr)
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
