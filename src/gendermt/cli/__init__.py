"""The ``gendermt`` command line: single stages without Snakemake.

Subcommands, options and the JSON they print are a public interface: add, never rename.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from gendermt.core import registry
from gendermt.core.errors import GenderMTError

# Modules with a `register(score_commands, metrics_type)` that adds `gendermt score <name>`:
# every benchmark's (its contract's `cli`), then the generic metrics'.
SCORE_COMMANDS = (
    *(b.cli for b in registry.benchmarks() if b.cli),
    "gendermt.scoring.cli",
)
# Modules with a `register(commands)` that adds a top-level command (`gendermt <name> ...`).
COMMANDS = (
    *(module for b in registry.benchmarks() for module in b.commands),
    "gendermt.scorecard.cli",
    "gendermt.cli.findings",
    "gendermt.cli.cache",
    "gendermt.cli.stored",
    "gendermt.cli.data",
    "gendermt.cli.run",
)


def metrics_list(text: str) -> list[str]:
    return [m.strip().lower() for m in text.split(",") if m.strip()]


DESCRIPTION = ("Single stages of the gendermt workflow without Snakemake: score a system's "
               "outputs on a benchmark (gendermt score BENCHMARK), build the cross-benchmark "
               "scorecard from a results folder, run FairTranslate's inclusive-language "
               "filters.")
EPILOG = ("'gendermt COMMAND --help' lists a command's options. Files are UTF-8, one segment "
          "per line (lines end at \\n only); '-' reads standard input. With --json a command "
          "prints JSON, floats rounded to --precision decimal places. Errors are one line on "
          "stderr and exit status 2.")


def _common_options(parser: argparse.ArgumentParser, top: bool) -> None:
    """--quiet and --precision, accepted before or after the command's name (on a
    subcommand they default to SUPPRESS, so that they do not undo the top-level one)."""
    default = (lambda value: value) if top else (lambda value: argparse.SUPPRESS)
    parser.add_argument("-q", "--quiet", action="store_true", default=default(False),
                        help="no progress bars (shown on stderr only when it is a terminal)")
    parser.add_argument("--precision", type=int, default=default(10), metavar="N",
                        help="decimal places of the numbers printed as JSON (default 10)")


def _leaves(parser: argparse.ArgumentParser):
    subparsers = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subparsers:
        yield parser
    for action in subparsers:
        for child in action.choices.values():
            yield from _leaves(child)


def build_parser() -> argparse.ArgumentParser:
    from gendermt import __version__

    parser = argparse.ArgumentParser(prog="gendermt", description=DESCRIPTION, epilog=EPILOG)
    parser.add_argument("--version", action="version", version=f"gendermt {__version__}")
    _common_options(parser, top=True)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    score = commands.add_parser("score", help="score a system's outputs",
                                description="Score a system's outputs on one benchmark, as "
                                            "the workflow's scoring stage does.")
    score_commands = score.add_subparsers(dest="benchmark", required=True, metavar="BENCHMARK")
    for module in SCORE_COMMANDS:
        importlib.import_module(module).register(score_commands, metrics_list)
    for module in COMMANDS:
        importlib.import_module(module).register(commands)
    for leaf in _leaves(parser):
        if leaf is not parser:
            _common_options(leaf, top=False)
    return parser


#: Options that name an input file, checked before any reader opens them (issue 51: a
#: device or an oversized file is one line, whichever reader the command uses).
INPUT_OPTIONS = ("hyp", "ref", "src", "data", "reference", "source", "target", "spec",
                 "hyp_masculine", "hyp_feminine")


def check_inputs(args: argparse.Namespace) -> None:
    """Every input file option: no device, no regular file over the input limit
    (:func:`gendermt.config.input_limits.check_input`)."""
    from gendermt.config.input_limits import check_input

    for name in INPUT_OPTIONS:
        value = getattr(args, name, None)
        if isinstance(value, str):
            check_input(value, f"--{name.replace('_', '-')}")


def main(argv: Sequence[str] | None = None) -> int:
    from gendermt.data import progress

    args = build_parser().parse_args(argv)
    progress.set_quiet(args.quiet)
    try:
        check_inputs(args)
        return args.func(args)
    except GenderMTError as exc:
        print(f"gendermt: error: {exc}", file=sys.stderr)
        return 2
    except MemoryError:  # a backstop: inputs are bounded (GENDERMT_MAX_INPUT_BYTES)
        print("gendermt: error: out of memory reading the inputs (lower "
              "GENDERMT_MAX_INPUT_BYTES, or give smaller files)", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
