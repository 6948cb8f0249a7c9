"""``gendermt winomt align``: the WinoMT aligner's links in fast_align's format, so that they
can be diffed against the C++ tool's (``fast_align -i FILE -d -o -v``)."""

from __future__ import annotations

import argparse
import sys

from gendermt.benchmarks.winomt.align import (
    ALIGNERS,
    DEFAULT_ALIGNER,
    align_pairs,
    fast_align_words,
    format_links,
)
from gendermt.core.errors import DatasetError

ALIASES = {"fastalign": "fast-align"}  # the tool's own spelling


def read_bitext(path: str) -> tuple[list[list[str]], list[list[str]]]:
    """Source and target words of every ``source ||| target`` line (``-``: stdin)."""
    from gendermt.data.textfiles import read_lines

    source, target = [], []
    for n, line in enumerate(read_lines(path, "--bitext"), 1):
        line = line.rstrip("\r")
        src, sep, tgt = line.partition("|||")
        if not sep:
            raise DatasetError(path, f"line {n}: no '|||' separating source and target")
        source.append(fast_align_words(src))
        target.append(fast_align_words(tgt))
    return source, target


def register(commands: argparse._SubParsersAction) -> None:
    winomt = commands.add_parser(
        "winomt", help="WinoMT's tools (the word aligner, the readers' check against human "
                       "labels)")
    tools = winomt.add_subparsers(dest="tool", required=True)
    p = tools.add_parser(
        "align", help="word links of 'source ||| target' lines, in fast_align's format",
        description="Align every 'source ||| target' line of --bitext (as the published "
                    "WinoMT translation files are) with WinoMT's aligner, learning from the "
                    "whole file, and print one line of 'i-j' pairs (source word i, target word "
                    "j, 0-based whitespace words) per input line, as 'fast_align -d -o -v' "
                    "prints them: every target word linked to at most one source word.",
        epilog="fast-align (fastalign) follows the C++ tool step for step and gives its "
               "links; eflomal is a sampler with no seed (runs can differ). A line without "
               "'|||' is an error (exit 2).")
    p.add_argument("--bitext", required=True, help="'source ||| target' lines ('-': stdin)")
    p.add_argument("--aligner", choices=(*ALIGNERS, *ALIASES), default=DEFAULT_ALIGNER,
                   help="fast-align (default; also spelt fastalign) or eflomal")
    p.set_defaults(func=run)
    from gendermt.benchmarks.winomt.validate_cli import register as register_validate

    register_validate(tools)


def run(args: argparse.Namespace) -> int:
    source, target = read_bitext(args.bitext)
    aligner = ALIASES.get(args.aligner, args.aligner)
    forward, _ = align_pairs(source, target, {"aligner": aligner}, forward_only=True)
    sys.stdout.write("".join(format_links(links) + "\n" for links in forward))
    return 0
