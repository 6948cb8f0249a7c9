"""``gendermt score neogate``: Neo-GATE's metrics for one system's outputs, as the official
evaluation script computes them."""

from __future__ import annotations

import argparse

from gendermt.errors import GenderMTError
from gendermt.output import print_json
from gendermt.textfiles import read_lines

from . import COUNTS, METRICS


def register(score_commands: argparse._SubParsersAction, metrics_type) -> None:
    ng = score_commands.add_parser(
        "neogate", help="neomorpheme coverage, accuracy, CWA and mis-generation on Neo-GATE",
        description="Adapt Neo-GATE's annotations to a paradigm with a tagset mapping and score "
                    "outputs (one per line, in the file's order) as FBK's "
                    "neogate_evaluation.py does.")
    ng.add_argument("--data", required=True,
                    help="the published TSV (Neo-GATE.tsv or Neo-GATE-dev.tsv)")
    ng.add_argument("--mapping", required=True,
                    help="JSON object from tag (e.g. <ENDS>) to the paradigm's form")
    ng.add_argument("--hyp", required=True, help="system outputs, one per line")
    ng.add_argument("--neomorphemes", default=None, metavar="CHARS",
                    help="the paradigm's characters (default: those of the mapping's forms "
                         "other than a-z, A-Z and Italian accented vowels)")
    ng.add_argument("--split", default="test", help="rows of this SPLIT, for the first "
                    "release's single file with a SPLIT column (default: test)")
    ng.add_argument("--keep-slash", action="store_true",
                    help="keep '/' in words, as the official script means to but does not "
                         "(default: delete it, as the script does)")
    ng.add_argument("--no-anchor-wrap", action="store_true",
                    help="a function word whose anchor position falls before the line start "
                         "does not match (default: the position wraps to the line end, as in "
                         "the script)")
    ng.add_argument("--export-tsv", default=None, metavar="PATH",
                    help="also write the per-item words (the official --export_tsv columns)")
    ng.add_argument("--json", action="store_true", help="print JSON")
    ng.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from gendermt.io import atomic_path

    from .data import load
    from .evaluation import evaluate
    from .paradigm import load_mapping, neomorpheme_chars

    mapping = load_mapping(args.mapping)
    data = load(args.data, {"cli": mapping}, args.split)
    chars = ("".join(c for c in args.neomorphemes if not c.isspace())
             if args.neomorphemes is not None else neomorpheme_chars(mapping))
    if not chars:
        raise GenderMTError("no neomorpheme characters: the mapping's forms hold only "
                            "letters; give them with --neomorphemes CHARS")
    # \n ends a line (and \r\n): a lone \r or U+2028 inside an output does not shift the
    # outputs after it, as it would with the official script's readlines
    hyps = read_lines(args.hyp, "--hyp")
    if len(hyps) != len(data):
        raise GenderMTError(f"{args.hyp} has {len(hyps)} lines but {args.data} has "
                            f"{len(data)} entries: give one output per entry, in the file's "
                            "order")
    lines, scores = evaluate(hyps, list(data["annotation_cli"]), list(chars),
                             keep_slash=args.keep_slash,
                             wrap_negative_anchor=not args.no_anchor_wrap)
    if args.export_tsv:
        with atomic_path(args.export_tsv) as tmp, tmp.open("w", encoding="utf-8") as out:
            out.write("\t".join(["#", "ANNOTATIONS", "MATCHED", "CORRECT", "MASCULINE",
                                 "FEMININE", "MIS-GENERATIONS"]) + "\n")
            for number, line in zip(data["number"], lines, strict=True):
                out.write("\t".join([str(number), str(line.n_annotations),
                                     *(" ".join(getattr(line, k)) for k in (
                                         "matched", "correct", "masculine", "feminine",
                                         "misgenerations"))]) + "\n")
    result = {k: scores[k] for k in (*METRICS, *COUNTS)}
    if args.json:
        print_json(result, getattr(args, "precision", None))
    else:
        for key in COUNTS:
            print(f"{key}: {result[key]}")
        for key in METRICS:
            print(f"{key}: {result[key]:.2f}")
        print(f"neomorphemes: {chars}")
    return 0
