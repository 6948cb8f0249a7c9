"""The ``gendermt`` command line: single stages without Snakemake.

Subcommands, options and the JSON they print are a public interface: add, never rename.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from gendermt.errors import GenderMTError

# Modules with a `register(score_commands, metrics_type)` that adds `gendermt score <name>`.
SCORE_COMMANDS = (
    "gendermt.benchmarks.fairtranslate.cli",
    "gendermt.benchmarks.gambit.cli",
    "gendermt.benchmarks.gate.cli",
    "gendermt.benchmarks.gate_x_e.cli",
    "gendermt.benchmarks.mt_geneval.cli",
    "gendermt.benchmarks.conga.cli",
    "gendermt.benchmarks.neogate.cli",
    "gendermt.benchmarks.winomt.cli",
    "gendermt.scoring.cli",
)
# Modules with a `register(commands)` that adds a top-level command (`gendermt <name> ...`).
COMMANDS = (
    "gendermt.benchmarks.fairtranslate.inclusive_cli",
    "gendermt.scorecard.cli",
)


def metrics_list(text: str) -> list[str]:
    return [m.strip().lower() for m in text.split(",") if m.strip()]


def build_parser() -> argparse.ArgumentParser:
    from gendermt import __version__

    parser = argparse.ArgumentParser(prog="gendermt", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"gendermt {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    score = commands.add_parser("score", help="score a system's outputs")
    score_commands = score.add_subparsers(dest="benchmark", required=True)
    for module in SCORE_COMMANDS:
        importlib.import_module(module).register(score_commands, metrics_list)
    for module in COMMANDS:
        importlib.import_module(module).register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except GenderMTError as exc:
        print(f"gendermt: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
