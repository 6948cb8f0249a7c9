"""``gendermt scorecard --results DIR [--json]``: the scorecard from a results folder, without
Snakemake (the benchmarks whose tables are there)."""

from __future__ import annotations

import argparse
import sys

from gendermt.errors import GenderMTError
from gendermt.output import print_json


def register(commands: argparse._SubParsersAction) -> None:
    cmd = commands.add_parser(
        "scorecard", help="every benchmark's headline figures per system, side by side",
        description="Read each benchmark's tables under a results folder (the workflow's "
                    "results/) and print one row per system with each benchmark's headline "
                    "figures (Markdown with the header note, or JSON with --json).")
    cmd.add_argument("--results", required=True, help="the workflow's results folder")
    cmd.add_argument("--json", action="store_true",
                     help="print one JSON object per system (keys: see the README)")
    cmd.add_argument("--benchmarks", default=None,
                     help="comma-separated benchmarks (default: every one with tables there)")
    cmd.add_argument("--resamples", type=int, default=1000,
                     help="bootstrap resamples of the gap CIs (default 1000)")
    cmd.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")
    cmd.add_argument("--level", type=float, default=0.95, help="CI level (default 0.95)")
    cmd.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from .build import build, to_records
    from .figures import CONFIG_KEYS
    from .write import markdown

    # the config's and results' names too (`gambit` for GRAPE's column), any case
    benchmarks = ([CONFIG_KEYS.get(b.strip().lower(), b.strip().lower())
                   for b in args.benchmarks.split(",") if b.strip()]
                  if args.benchmarks else None)
    card = build(args.results, benchmarks, bootstrap={
        "resamples": args.resamples, "seed": args.seed, "level": args.level})
    if not card.systems:
        raise GenderMTError(f"{args.results}: no benchmark tables found (expected e.g. "
                            "fairtranslate/tables/by_gender.csv)")
    if args.json:
        print_json(to_records(card), getattr(args, "precision", None))
    else:
        sys.stdout.write(markdown(card))
    return 0
