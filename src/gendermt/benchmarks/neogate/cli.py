"""``gendermt score neogate``: Neo-GATE's metrics for one system's outputs, as the official
evaluation script computes them."""

from __future__ import annotations

import argparse

from gendermt.benchmarks.neogate import COUNTS, METRICS
from gendermt.core.errors import GenderMTError
from gendermt.data.json_output import print_json
from gendermt.data.textfiles import read_lines


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
    from gendermt.benchmarks.neogate.data import load
    from gendermt.benchmarks.neogate.metric import evaluate, signature
    from gendermt.benchmarks.neogate.paradigm import load_mapping, paradigm_neomorphemes

    mapping = load_mapping(args.mapping)
    data = load(args.data, {"cli": mapping}, args.split)
    chars = paradigm_neomorphemes(args.mapping, mapping, args.neomorphemes)
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
        write_export(args.export_tsv, data["number"], lines)
    from gendermt.scoring.output_quality import add_quality, output_quality

    # Neo-GATE translates into Italian: an English (untranslated) output has no neomorpheme
    quality = add_quality({}, output_quality(hyps, "it", data["source"].astype(str).tolist()))
    result = {k: scores[k] for k in (*METRICS, *COUNTS)}
    if args.json:
        options = {"keep_slash": args.keep_slash, "wrap_negative_anchor": not args.no_anchor_wrap}
        print_json({**result, "signature": signature(options, extracted=False), **quality},
                   getattr(args, "precision", None))
    else:
        for key in COUNTS:
            print(f"{key}: {result[key]}")
        for key, value in quality.items():
            print(f"{key}: {value}")
        for key in METRICS:
            print(f"{key}: {result[key]:.2f}")
        print(f"neomorphemes: {chars}")
    return 0


EXPORT_COLUMNS = ["#", "ANNOTATIONS", "MATCHED", "CORRECT", "MASCULINE", "FEMININE",
                  "MIS-GENERATIONS"]


def write_export(path: str, numbers, lines) -> None:
    """The per-item words, one row per entry, as FBK's ``--export_tsv`` writes them: Python's
    ``csv`` writer with a tab delimiter, so a field holding a tab, a quote or a line break is
    quoted ("…", inner quotes doubled) and never shifts the row; read it back with
    ``csv.reader(fh, delimiter="\t")``."""
    import csv

    from gendermt.data.io import atomic_path

    with atomic_path(path) as tmp, tmp.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out, delimiter="\t", lineterminator="\n")
        writer.writerow(EXPORT_COLUMNS)
        for number, line in zip(numbers, lines, strict=True):
            writer.writerow([str(number), str(line.n_annotations),
                             *(" ".join(getattr(line, k)) for k in (
                                 "matched", "correct", "masculine", "feminine",
                                 "misgenerations"))])
