"""What the SLURM executor plugin costs every `snakemake` start, with SLURM's controller up and
stopped, and whether any setting avoids it (issue 30: each against the plugin not installed).

Usage: python perf/slurm_plugin_startup.py [--repeats 3] [--no-stop] [--small] [--record]

Snakemake imports every installed executor plugin to build its command line;
snakemake-executor-plugin-slurm runs `scontrol show config` while being imported (the help
text of --slurm-status-command), which waits for the controller up to its 10 s timeout when
SLURM is installed but not running. Measured here: `snakemake --version` (nothing but the
start-up) in this Python, with the plugin visible (as after `pip install '.[slurm]'`) and
hidden from plugin discovery (as in the default environment, which does not install it);
with the controller stopped also under the candidate settings (SLURM_CONF pointing nowhere,
--slurm-status-command on the command line, and a profile that sets it). Stopping and
starting the controller uses the test cluster (.ci/slurm-cluster, root); without it, only the
current state is measured. Each row is an A/B (perf/_ab.py): A the plugin visible (plain or
under a candidate setting), B the plugin hidden (the bare alternative: the default
environment), alternating after a warm-up of each, **wall** seconds (the plugin's cost is a
wait for the controller, not CPU); min, median and ratio. Needs SLURM (`sbatch`,
`scontrol`) and the plugin: without either it exits 1 saying which. ``--small`` (CI, with the
test cluster running): the current state only, one pair, no stopping.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
import _ab  # noqa: E402 (perf/_ab.py: the A/B comparison)

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


def seconds(side: str, code: str, args: list[str], env: dict | None = None) -> float:
    """Wall seconds of one ``snakemake`` start; a failure names the side."""
    t0 = time.perf_counter()
    try:
        proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                              text=True, env={**os.environ, **(env or {})}, timeout=120)
    except subprocess.TimeoutExpired as exc:
        raise _ab.SideFailed(side, f"snakemake {' '.join(args)} ran over 120 s") from exc
    if proc.returncode:
        raise _ab.SideFailed(side, f"snakemake {' '.join(args)} (exit {proc.returncode}):\n"
                                   f"{proc.stderr[-2000:]}")
    return time.perf_counter() - t0


def controller_up() -> bool:
    try:
        return subprocess.run(["scontrol", "ping"], capture_output=True, text=True,
                              timeout=30).stdout.count("UP") > 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    _ab.add_arguments(parser)
    parser.add_argument("--no-stop", action="store_true",
                        help="do not stop and restart the test cluster's controller")
    args = parser.parse_args(argv)
    # SLURM first: importing the plugin runs SLURM's tools (and `which`) where it is absent
    for tool in ("sbatch", "scontrol"):
        if shutil.which(tool) is None:
            raise SystemExit(f"SLURM is not installed here (no `{tool}` on PATH): "
                             ".ci/slurm-cluster install, as root")
    if importlib.util.find_spec("snakemake_executor_plugin_slurm") is None:
        raise SystemExit("the SLURM plugin is not installed in this Python: "
                         "pip install -e '.[slurm]'")
    repeats = 1 if args.small else args.repeats
    can_toggle = (not args.no_stop and not args.small and os.geteuid() == 0
                  and CLUSTER.exists())
    was_up = controller_up()

    def versus_hidden(state: str, what: str, args_: list[str], env: dict | None = None
                      ) -> None:
        _ab.compare(f"snakemake --version, SLURM {state}, {what}",
                    lambda: seconds("gendermt", VISIBLE, args_, env),
                    lambda: seconds("bare", HIDDEN, ["--version"]), repeats,
                    unit="wall seconds", note="B: the plugin hidden (the default env)")

    with tempfile.TemporaryDirectory() as tmp:
        profile = Path(tmp) / "profile"
        profile.mkdir()
        (profile / "config.yaml").write_text("slurm-status-command: squeue\n")
        try:
            if can_toggle and not was_up:
                subprocess.run([str(CLUSTER), "start"], check=True, capture_output=True)
            if controller_up():
                versus_hidden("controller up", "plugin installed", ["--version"])
            if can_toggle:
                subprocess.run([str(CLUSTER), "stop"], check=True, capture_output=True)
            if not controller_up():
                state = "controller stopped"
                versus_hidden(state, "plugin installed", ["--version"])
                versus_hidden(state, "plugin installed, SLURM_CONF=/nonexistent",
                              ["--version"], env={"SLURM_CONF": "/nonexistent"})
                versus_hidden(state, "plugin installed, --slurm-status-command squeue",
                              ["--slurm-status-command", "squeue", "--version"])
                versus_hidden(state, "plugin installed, a profile setting "
                              "slurm-status-command", ["--profile", str(profile), "--version"])
        finally:
            if can_toggle and was_up and not controller_up():
                subprocess.run([str(CLUSTER), "start"], capture_output=True)
    return _ab.finish("slurm_plugin_startup", args)


if __name__ == "__main__":
    sys.exit(main())
