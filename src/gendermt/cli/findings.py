"""``gendermt findings [--results DIR] [--out FILE]``: the findings page of one run
(gendermt.report.findings), written from its scorecard and run summary."""

from __future__ import annotations

import argparse
import sys


def register(commands: argparse._SubParsersAction) -> None:
    cmd = commands.add_parser(
        "findings", help="the findings page of one run (docs/findings.md), from its scorecard",
        description="Write one run's findings page from its own files: the scorecard "
                    "(results/<run>/scorecard/scorecard.json, legend.csv) and the run summary "
                    "(report/run.json). Every figure is the scorecard's; nothing is typed.")
    cmd.add_argument("--results", default="results/public",
                     help="one run's results folder, results/<run>/ (default: results/public, "
                          "config/study/public.yaml's)")
    cmd.add_argument("--subset-results", action="append", default=[], metavar="DIR",
                     help="a run on subsets of the items (e.g. results/public-gemma, "
                          "config/study/public-gemma.yaml's): its tables follow, each naming "
                          "its subset (repeatable)")
    cmd.add_argument("--out", default=None,
                     help="the page to write (e.g. docs/findings.md; default: print it), and "
                          "its machine-readable copy beside it (findings.json)")
    cmd.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from gendermt.data.io import write_text
    from gendermt.report.findings import copy_of, copy_text, page

    command = f"gendermt findings --results {args.results}" + "".join(
        f" --subset-results {d}" for d in args.subset_results) + (
        f" --out {args.out}" if args.out else "")
    text = page(args.results, command, args.subset_results)
    if args.out:
        write_text(args.out, text)
        # its machine-readable copy beside it (docs/findings.json): what the page's check
        # compares the page with where the run's results are absent
        write_text(Path(args.out).with_suffix(".json"), copy_text(copy_of(text, command)))
    else:
        sys.stdout.write(text)
    return 0
