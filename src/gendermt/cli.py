"""The ``gendermt`` command line: single stages without Snakemake.

Subcommands, options and the JSON they print are a public interface: add, never rename.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from gendermt.errors import GenderMTError


def _metrics(text: str) -> list[str]:
    return [m.strip().lower() for m in text.split(",") if m.strip()]


def _score_fairtranslate(args: argparse.Namespace) -> int:
    import pandas as pd

    from gendermt.benchmarks.fairtranslate import GENDERS
    from gendermt.benchmarks.fairtranslate.data import load
    from gendermt.scoring.score import score_frame

    data, _ = load(args.data)
    hyps = Path(args.hyp).read_text(encoding="utf-8").splitlines()
    if len(hyps) != len(data):
        raise GenderMTError(f"{args.hyp} has {len(hyps)} lines but {args.data} has "
                            f"{len(data)} rows: give one output per row, in dataset order")
    frame = data.assign(hypothesis=hyps)
    scores, summary = score_frame(frame, args.metrics, None, ["gender"])
    sentence = scores.merge(frame[["item_id", "gender"]], on="item_id")
    means = sentence.groupby(["metric", "gender"])["score"].mean()
    result = {}
    for metric, info in summary.items():
        order = ["all", *[g for g in GENDERS if g in info["corpus"]]]
        result[metric] = {
            "signature": info["signature"],
            "corpus": {k: info["corpus"][k] for k in order},
            "sentence_mean": {"all": float(sentence.loc[sentence["metric"] == metric,
                                                        "score"].mean()),
                              **{g: float(means[(metric, g)]) for g in order[1:]}},
            "sentence_signature": info["sentence_signature"],
            "n": {k: info["n"][k] for k in order},
        }
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        rows = pd.DataFrame({m: r["corpus"] for m, r in result.items()})
        print(rows.round(2).to_string())
        for metric, r in result.items():
            print(f"{metric}: {r['signature']}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gendermt", description=__doc__.splitlines()[0])
    from gendermt import __version__
    parser.add_argument("--version", action="version", version=f"gendermt {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    score = commands.add_parser("score", help="score a system's outputs")
    benchmarks = score.add_subparsers(dest="benchmark", required=True)
    ft = benchmarks.add_parser(
        "fairtranslate", help="per-gender corpus scores on FairTranslate",
        description="Score outputs (one per line, in dataset order) against FairTranslate's "
                    "references, per gender of the reference.")
    ft.add_argument("--data", required=True,
                    help="the dataset: its Parquet file, a folder with data/train-*.parquet, "
                         "or the authors' semicolon-separated CSV")
    ft.add_argument("--hyp", required=True, help="system outputs, one per line")
    ft.add_argument("--metrics", type=_metrics, default=["bleu", "chrf"],
                    help="comma-separated: bleu,chrf (default: both)")
    ft.add_argument("--json", action="store_true", help="print JSON")
    ft.set_defaults(func=_score_fairtranslate)
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
