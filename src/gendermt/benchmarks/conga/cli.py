"""``gendermt score conga``: ConGA categories and per-gender metrics of tagged sentences."""

from __future__ import annotations

import argparse

from gendermt.core.errors import GenderMTError
from gendermt.data.json_output import print_json


def register(score_commands: argparse._SubParsersAction, metrics_type) -> None:
    conga = score_commands.add_parser(
        "conga", help="ConGA entity-level gender categories (en→it)",
        description="Compare tagged English gold sentences (<M#>/<F#>/<A#> after the word) "
                    "with annotated Italian outputs (<M#>/<F#>), one sentence per line on "
                    "each side, entity by entity (ConGA §7).")
    conga.add_argument("--source", required=True, help="tagged English, one sentence a line")
    conga.add_argument("--target", required=True, help="annotated Italian, one sentence a line")
    conga.add_argument("--denominator", choices=["tags", "entities"], default="tags",
                       help="precision/recall denominators: tag counts as in the paper's "
                            "Table 6 (default), or entity counts")
    conga.add_argument("--json", action="store_true", help="print JSON")
    conga.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from gendermt.benchmarks.conga import CATEGORIES, METRICS
    from gendermt.benchmarks.conga.annotations import read_lines
    from gendermt.benchmarks.conga.evaluate import score_sentences, summarise
    from gendermt.benchmarks.conga.tags import TagScheme

    source, target = read_lines(args.source), read_lines(args.target)
    if len(source) != len(target):
        raise GenderMTError(f"{args.source} has {len(source)} lines but {args.target} has "
                            f"{len(target)}: give one annotated output per source sentence")
    items = [{"item_id": str(i), "source_tagged": s, "annotation": t, "status": "annotated",
              "where": f"{args.source}/{args.target} line {i}"}
             for i, (s, t) in enumerate(zip(source, target, strict=True), start=1)]
    _, sentences = score_sentences(items, TagScheme.source(), TagScheme.target())
    summary = summarise(sentences, args.denominator)
    result = {k: summary[k] for k in (*CATEGORIES, *METRICS)}
    import re

    from gendermt.scoring.output_quality import add_quality, output_quality

    # the outputs without their tags: English (untranslated) ones are no Italian annotation
    untag = re.compile(r"<[A-Za-z]+\d*>")
    quality = add_quality({}, output_quality([untag.sub(" ", t) for t in target], "it",
                                             [untag.sub(" ", s) for s in source]))
    if args.json:
        from gendermt.benchmarks.conga.metric import signature

        print_json({**result, "signature": signature(args.denominator), **quality},
                   getattr(args, "precision", None))
    else:
        for key, value in result.items():
            shown = "n/a" if value is None else (f"{value:.4f}" if isinstance(value, float)
                                                 else str(value))
            print(f"{key:18s} {shown}")
    return 0
