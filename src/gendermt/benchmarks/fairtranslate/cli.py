"""``gendermt score fairtranslate``: per-gender scores of one system's outputs."""

from __future__ import annotations

import argparse
import sys

from gendermt.core.errors import GenderMTError
from gendermt.data.json_output import print_json
from gendermt.data.textfiles import read_lines


def register(score_commands: argparse._SubParsersAction, metrics_type) -> None:
    ft = score_commands.add_parser(
        "fairtranslate", help="per-gender corpus scores on FairTranslate",
        description="Score outputs (one per line, in dataset order) against FairTranslate's "
                    "references, per gender of the reference.")
    ft.add_argument("--data", required=True,
                    help="the dataset: its Parquet file, a folder with data/train-*.parquet, "
                         "or the authors' semicolon-separated CSV")
    ft.add_argument("--hyp", required=True, help="system outputs, one per line")
    ft.add_argument("--metrics", type=metrics_type, default=["bleu", "chrf"],
                    help="comma-separated: bleu,chrf (default: both)")
    ft.add_argument("--json", action="store_true", help="print JSON")
    ft.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import pandas as pd

    from gendermt.benchmarks.fairtranslate import GENDERS
    from gendermt.benchmarks.fairtranslate.data import load
    from gendermt.scoring.metrics import check_metrics
    from gendermt.scoring.score import score_frame

    check_metrics(args.metrics)  # before the data are read or any metric computed
    data, _ = load(args.data)
    hyps = read_lines(args.hyp, "--hyp")
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
    from gendermt.scoring.output_quality import output_quality, quality_warning

    # per metric (the JSON's keys are metrics): the outputs' clean share, the same for each
    quality = output_quality(hyps, str(frame["tgt_lang"].iat[0]), frame["source"].tolist())
    for metric in result:
        result[metric].update(clean_share=quality["clean_share"],
                              low_quality=quality["low_quality"])
    line = quality_warning(quality)
    if line:
        print(line, file=sys.stderr)
    if args.json:
        print_json(result, getattr(args, "precision", None))
    else:
        rows = pd.DataFrame({m: r["corpus"] for m, r in result.items()})
        print(rows.round(2).to_string())
        for metric, r in result.items():
            print(f"{metric}: {r['signature']}")
    return 0
