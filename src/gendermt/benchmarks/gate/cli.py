"""``gendermt score gate``: GATE's precision / recall / F0.5 of one rewriter's outputs."""

from __future__ import annotations

import argparse

from gendermt.core.errors import GenderMTError
from gendermt.data.json_output import print_json
from gendermt.data.textfiles import read_lines


def register(score_commands: argparse._SubParsersAction, metrics_type) -> None:
    gate = score_commands.add_parser(
        "gate", help="exact-match precision/recall/F0.5 on GATE (en→es/fr/it)",
        description="Score a rewriter's outputs (one line per row of a GATE *_2_variants.tsv, "
                    "dev and test together, in file order; a blank line where it gave none) "
                    "as GATE's GateEval.py does: overall and per category label.")
    gate.add_argument("--reference", required=True, help="a GATE XX_2_variants.tsv")
    gate.add_argument("--hyp", required=True, help="rewriter outputs, one per line")
    gate.add_argument("--gender", required=True, choices=["masculine", "feminine"],
                      help="the gender of the outputs: masculine for female→male rewrites "
                           "(compared with column m), feminine for male→female (column f)")
    gate.add_argument("--min-words", type=int, default=None,
                      help="leave out rows whose source has fewer whitespace-separated words")
    gate.add_argument("--max-words", type=int, default=None,
                      help="leave out rows whose source has more whitespace-separated words")
    gate.add_argument("--full-set-recall", action="store_true",
                      help="keep rows left out by the length filters in recall's denominator")
    gate.add_argument("--json", action="store_true", help="print JSON")
    gate.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from gendermt.benchmarks.gate.data import load_variants
    from gendermt.benchmarks.gate.metric import evaluate, signature

    reference = load_variants(args.reference)
    if reference["n_variants"].iat[0] != 2:
        raise GenderMTError(f"{args.reference}: GATE's evaluation covers the 2-variant files "
                            "(one AGME); this file has more variants")
    hyps = read_lines(args.hyp, "--hyp")
    result = evaluate(reference, hyps, args.gender, args.min_words, args.max_words,
                      args.full_set_recall)
    from pathlib import Path

    from gendermt.scoring.output_quality import add_quality, output_quality

    # GATE's files are named by their language (ES_2_variants.tsv); an output that is the
    # English source, or in English, is no rewrite (a blank line, no rewrite given, is fine)
    lang = Path(args.reference).name.split("_")[0].lower()
    given = [(h, s) for h, s in zip(hyps, reference["source"], strict=False) if h.strip()]
    quality = output_quality([h for h, _ in given], lang, [s for _, s in given])
    # in the overall object: every other key but the signature is a category's
    result["overall"] = add_quality(result["overall"], quality)
    if args.json:
        print_json({**result, "signature": signature(args.min_words, args.max_words,
                                                     args.full_set_recall)},
                   getattr(args, "precision", None))
    else:
        for name, row in result.items():
            print(f"{'Overall' if name == 'overall' else name}\t{row['count']:4} (Matches: "
                  f"{row['matches']}, Mismatches: {row['mismatches']})\t-- Precision: "
                  f"{row['precision']:.2f}, Recall: {row['recall']:.2f}, "
                  f"f0.5: {row['f05']:.2f}")
    return 0
