"""``gendermt score mt-geneval``: MT-GenEval's official gender accuracy of one system."""

from __future__ import annotations

import argparse
from pathlib import Path

from gendermt.benchmarks.mt_geneval import LANGUAGES, SETS, SPLITS
from gendermt.core.errors import DatasetError, GenderMTError
from gendermt.data.json_output import print_json


def register(score_commands: argparse._SubParsersAction, metrics_type) -> None:
    p = score_commands.add_parser(
        "mt-geneval", help="gender accuracy on MT-GenEval (counterfactual or contextual set)",
        description="MT-GenEval's accuracy as its official accuracy_metric.py computes it: an "
                    "output is incorrect when it contains a word found only in the "
                    "counterfactual (other-gender) reference. Accuracies are fractions in "
                    "[0, 1]. On the counterfactual set an item is correct only when both its "
                    "masculine and its feminine translations are.")
    p.add_argument("--data", required=True,
                   help="the release's folder: the one holding data/sentences and data/context, "
                        "or data/ itself")
    p.add_argument("--lang", required=True, choices=LANGUAGES, help="target language")
    p.add_argument("--split", required=True, choices=SPLITS)
    p.add_argument("--set", required=True, choices=SETS, dest="which")
    p.add_argument("--hyp", help="contextual set: outputs, one per line of the set ('-': stdin)")
    p.add_argument("--hyp-masculine", help="counterfactual set: outputs for the masculine "
                                           "sources, one per line")
    p.add_argument("--hyp-feminine", help="counterfactual set: outputs for the feminine sources")
    p.add_argument("--items", help="write the per-item decisions, with the words that decided "
                                   "them, here (.csv, .jsonl or .parquet)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def read_outputs(path: str, expected: int) -> list[str]:
    """One output per line (split on ``\\n`` only), exactly ``expected`` lines."""
    from gendermt.data.textfiles import read_lines

    lines = read_lines(path, "--hyp")
    if len(lines) != expected:
        raise DatasetError(path, f"{len(lines)} lines for the set's {expected} items (one output "
                                 "per line, in the order of the set's files)")
    return lines


def _check_args(args: argparse.Namespace) -> None:
    if args.which == "contextual":
        if args.hyp is None or args.hyp_masculine or args.hyp_feminine:
            raise GenderMTError("the contextual set takes --hyp (and not --hyp-masculine/"
                                "--hyp-feminine)")
    elif args.hyp is not None or not (args.hyp_masculine and args.hyp_feminine):
        raise GenderMTError("the counterfactual set takes --hyp-masculine and --hyp-feminine "
                            "(the translations of its masculine and its feminine sources)")
    if [args.hyp, args.hyp_masculine, args.hyp_feminine].count("-") > 1:
        raise GenderMTError("only one of the outputs can come from stdin ('-')")
    if args.items and Path(args.items).suffix.lower() not in (".csv", ".jsonl", ".parquet"):
        raise GenderMTError(f"--items {args.items}: write .csv, .jsonl or .parquet")


def write_items(items, path: str) -> None:
    from gendermt.data.io import atomic_path, write_jsonl

    suffix = Path(path).suffix.lower()
    if suffix == ".jsonl":
        write_jsonl(path, items.to_dict("records"))
        return
    with atomic_path(path) as tmp:
        if suffix == ".parquet":
            items.to_parquet(tmp, index=False)
        else:
            items.to_csv(tmp, index=False)


def run(args: argparse.Namespace) -> int:
    from gendermt.benchmarks.mt_geneval.data import load
    from gendermt.benchmarks.mt_geneval.evaluate import (
        evaluate_contextual,
        evaluate_counterfactual,
        summarise,
    )

    _check_args(args)
    data = load(args.data, args.lang, args.split, args.which)
    if args.which == "contextual":
        outputs = read_outputs(args.hyp, len(data))
        items = evaluate_contextual(data, outputs)
        sources = data["source"].tolist()
    else:
        masculine = read_outputs(args.hyp_masculine, len(data))
        feminine = read_outputs(args.hyp_feminine, len(data))
        items = evaluate_counterfactual(data, masculine, feminine)
        outputs = masculine + feminine
        sources = data["source_masculine"].tolist() + data["source_feminine"].tolist()
    from gendermt.benchmarks.mt_geneval.metric import signature
    from gendermt.scoring.output_quality import add_quality, output_quality

    # an untranslated English output has no gendered word to be wrong: "correct" (issue 48)
    result = add_quality({"lang": args.lang, "split": args.split, "set": args.which,
                          **summarise(items), "signature": signature()},
                         output_quality(outputs, args.lang, sources))
    if args.items:
        write_items(items, args.items)
    if args.json:
        print_json(result, getattr(args, "precision", None))
    else:
        for key, value in result.items():
            print(f"{key:>19}: {value:.4f}" if isinstance(value, float)
                  else f"{key:>19}: {value}")
    return 0
