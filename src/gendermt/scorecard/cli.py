"""``gendermt scorecard [--results DIR] [--json]``: the scorecard from one run's results folder
(results/<run>/; default results/default/), without Snakemake (the benchmarks whose tables
are there)."""

from __future__ import annotations

import argparse
import sys

from gendermt.core.errors import GenderMTError
from gendermt.data.json_output import print_json


def register(commands: argparse._SubParsersAction) -> None:
    cmd = commands.add_parser(
        "scorecard", help="every benchmark's headline figures per system, side by side",
        description="Read each benchmark's tables under one run's results folder (the "
                    "workflow's results/<run>/) and print one row per system with each "
                    "benchmark's headline figures (Markdown with the header note, or JSON "
                    "with --json).")
    cmd.add_argument("--results", default="results/default",
                     help="one run's results folder, results/<run>/ (default: results/default, "
                          "the embedded default's)")
    cmd.add_argument("--json", action="store_true",
                     help="print one JSON object per system (keys: see the README)")
    cmd.add_argument("--benchmarks", default=None,
                     help="comma-separated benchmarks (default: every one with tables there)")
    cmd.add_argument("--resamples", type=int, default=1000,
                     help="bootstrap resamples of the gap CIs (default 1000)")
    cmd.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")
    cmd.add_argument("--level", type=float, default=0.95, help="CI level (default 0.95)")
    cmd.add_argument("--configfile", action="append", default=None, metavar="FILE",
                     help="the run's config file(s), for the systems' kinds (oracles never "
                          "lead a figure); default: the results folder's report/run.json")
    cmd.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from gendermt.scorecard.build import build, to_records
    from gendermt.scorecard.figures import CONFIG_KEYS
    from gendermt.scorecard.write import markdown

    # the config's and results' names too (`gambit` for GRAPE's column), any case
    benchmarks = ([CONFIG_KEYS.get(b.strip().lower(), b.strip().lower())
                   for b in args.benchmarks.split(",") if b.strip()]
                  if args.benchmarks else None)
    card = build(args.results, benchmarks, bootstrap={
        "resamples": args.resamples, "seed": args.seed, "level": args.level},
        kinds=_kinds(args))
    if not card.systems:
        raise GenderMTError(f"{args.results}: no benchmark tables found (expected e.g. "
                            "fairtranslate/tables/by_gender.csv; a run's tables are in "
                            "results/<run>/)")
    if args.json:
        print_json(to_records(card), getattr(args, "precision", None))
    else:
        sys.stdout.write(markdown(card))
    return 0


def _kinds(args: argparse.Namespace) -> dict[str, str]:
    """The systems' kinds: from the config files given (later files win, as Snakemake merges
    them), else from the results folder's run summary."""
    from gendermt.scorecard.kinds import kinds_in, kinds_of

    if not getattr(args, "configfile", None):
        return kinds_in(args.results)
    from gendermt.config.files import read_config

    systems: dict = {}
    for path in args.configfile:
        data = read_config(path)
        systems.update(data.get("systems") or {})
    return kinds_of(systems)
