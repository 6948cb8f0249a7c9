"""What the SLURM executor plugin costs every `snakemake` start, with SLURM's controller up and
stopped, and whether any setting avoids it.

Usage: python perf/slurm_plugin_startup.py [--repeats 3] [--no-stop]

Snakemake imports every installed executor plugin to build its command line;
snakemake-executor-plugin-slurm runs `scontrol show config` while being imported (the help
text of --slurm-status-command), which waits for the controller up to its 10 s timeout when
SLURM is installed but not running. Measured here: `snakemake --version` (nothing but the
start-up) in this Python, with the plugin visible (as after `pip install '.[slurm]'`) and
hidden from plugin discovery (as in the default environment, which does not install it);
with the controller stopped also under the candidate settings (SLURM_CONF pointing nowhere,
--slurm-status-command on the command line, and a profile that sets it). Stopping and
starting the controller uses the test cluster (.ci/slurm-cluster, root); without it, only the
current state is measured.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLUSTER = ROOT / ".ci" / "slurm-cluster"
# the default environment: the same Snakemake with the plugin not found by discovery
HIDDEN = ("import pkgutil, sys\n"
          "_iter = pkgutil.iter_modules\n"
          "pkgutil.iter_modules = lambda *a, **k: (m for m in _iter(*a, **k)\n"
          "    if not m.name.startswith('snakemake_executor_plugin_slurm'))\n"
          "from snakemake.cli import main\n"
          "sys.argv = ['snakemake', *sys.argv[1:]]\n"
          "sys.exit(main())\n")
VISIBLE = ("import sys\nfrom snakemake.cli import main\n"
           "sys.argv = ['snakemake', *sys.argv[1:]]\nsys.exit(main())\n")


def seconds(code: str, args: list[str], repeats: int, env: dict | None = None,
            cwd: Path | None = None) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                              text=True, env={**os.environ, **(env or {})}, cwd=cwd,
                              timeout=120)
        times.append(time.perf_counter() - t0)
        if proc.returncode:
            sys.exit(f"snakemake {' '.join(args)} failed:\n{proc.stderr[-2000:]}")
    return statistics.median(times)


def controller_up() -> bool:
    try:
        return subprocess.run(["scontrol", "ping"], capture_output=True, text=True,
                              timeout=30).stdout.count("UP") > 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-stop", action="store_true",
                        help="do not stop and restart the test cluster's controller")
    args = parser.parse_args()
    try:
        import snakemake_executor_plugin_slurm  # noqa: F401
    except ImportError:
        sys.exit("install the plugin in this Python first: pip install -e '.[slurm]'")
    if shutil.which("scontrol") is None:
        sys.exit("SLURM is not installed here (.ci/slurm-cluster install, as root)")
    can_toggle = not args.no_stop and os.geteuid() == 0 and CLUSTER.exists()
    was_up = controller_up()
    rows = []

    def measure(state: str) -> None:
        rows.append((state, "plugin not installed (default env)",
                     seconds(HIDDEN, ["--version"], args.repeats)))
        rows.append((state, "plugin installed", seconds(VISIBLE, ["--version"], args.repeats)))

    with tempfile.TemporaryDirectory() as tmp:
        profile = Path(tmp) / "profile"
        profile.mkdir()
        (profile / "config.yaml").write_text("slurm-status-command: squeue\n")
        try:
            if can_toggle and not was_up:
                subprocess.run([str(CLUSTER), "start"], check=True, capture_output=True)
            if controller_up():
                measure("controller up")
            if can_toggle:
                subprocess.run([str(CLUSTER), "stop"], check=True, capture_output=True)
            if not controller_up():
                measure("controller stopped")
                rows.append(("controller stopped", "plugin installed, SLURM_CONF=/nonexistent",
                             seconds(VISIBLE, ["--version"], args.repeats,
                                     env={"SLURM_CONF": "/nonexistent"})))
                rows.append(("controller stopped",
                             "plugin installed, --slurm-status-command squeue",
                             seconds(VISIBLE, ["--slurm-status-command", "squeue", "--version"],
                                     args.repeats)))
                rows.append(("controller stopped",
                             "plugin installed, a profile setting slurm-status-command",
                             seconds(VISIBLE, ["--profile", str(profile), "--version"],
                                     args.repeats)))
        finally:
            if can_toggle and was_up and not controller_up():
                subprocess.run([str(CLUSTER), "start"], capture_output=True)
    print(f"## `snakemake --version` start-up (median of {args.repeats})\n")
    print("| SLURM | environment | seconds |")
    print("|---|---|---:|")
    for state, what, value in rows:
        print(f"| {state} | {what} | {value:.2f} |")


if __name__ == "__main__":
    main()
