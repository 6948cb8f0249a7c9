"""``gendermt score gate-x-e``: a rewriter's outputs on one GATE X-E file, in Table 2's
layout."""

from __future__ import annotations

import argparse
from pathlib import Path

from gendermt.core.errors import GenderMTError
from gendermt.data.json_output import print_json


def register(score_commands: argparse._SubParsersAction, metrics_type) -> None:
    gxe = score_commands.add_parser(
        "gate-x-e", help="exact-match accuracy of gender rewrites on GATE X-E (→en)",
        description="Score rewrites of GATE X-E's test tuples (§4.2) in the paper's Table 2 "
                    "layout: accuracy per subtype × original gender × requested gender, "
                    "plus the relaxed negative-neutral score (§5.3). The tuples and their "
                    "ids come from --data; --write-tuples saves them for a rewriter to use.")
    gxe.add_argument("--data", required=True,
                     help="a GATE X-E file, GATE_data_{tur,fin,hun,farsi}.txt")
    gxe.add_argument("--rewrites", help="a table keyed by tuple id: CSV, TSV, JSONL or "
                                        "Parquet with columns tuple_id and rewrite; a "
                                        "rewrite 'None' keeps the original, as the "
                                        "workflow reads a rewriter's 'None' answer")
    gxe.add_argument("--write-tuples", metavar="PATH",
                     help="write the test tuples (tuple_id, source, original, "
                          "requested_gender, reference, …) to this CSV/TSV/JSONL/Parquet")
    gxe.add_argument("--json", action="store_true", help="print JSON")
    gxe.set_defaults(func=run)


def read_table(path: str | Path):
    import pandas as pd

    path = Path(path)
    suffix = path.suffix.lower()
    try:
        if suffix == ".parquet":
            return pd.read_parquet(path)
        if suffix in (".jsonl", ".json"):
            return pd.read_json(path, lines=suffix == ".jsonl", dtype=False)
        if suffix in (".csv", ".tsv"):
            return pd.read_csv(path, sep="\t" if suffix == ".tsv" else ",", dtype=str,
                               keep_default_na=False, quoting=3 if suffix == ".tsv" else 0)
    except (OSError, ValueError) as exc:
        raise GenderMTError(f"cannot read {path}: {exc}") from exc
    raise GenderMTError(f"{path}: give a .csv, .tsv, .jsonl or .parquet table")


def write_table(frame, path: str | Path) -> None:
    from gendermt.data.io import atomic_path

    path = Path(path)
    suffix = path.suffix.lower()
    with atomic_path(path) as tmp:
        if suffix == ".parquet":
            frame.to_parquet(tmp, index=False)
        elif suffix == ".jsonl":
            frame.to_json(tmp, orient="records", lines=True, force_ascii=False)
        elif suffix in (".csv", ".tsv"):
            frame.to_csv(tmp, sep="\t" if suffix == ".tsv" else ",", index=False)
        else:
            raise GenderMTError(f"{path}: give a .csv, .tsv, .jsonl or .parquet path")


def run(args: argparse.Namespace) -> int:
    from gendermt.benchmarks.gate_x_e.data import extract, load_instances
    from gendermt.benchmarks.gate_x_e.metric import (
        accuracy_long,
        accuracy_signature,
        mark,
        nested,
        rewrites_from_table,
    )

    if not args.rewrites and not args.write_tuples:
        raise GenderMTError("give --rewrites to score, or --write-tuples to save the tuples")
    instances = load_instances(args.data)
    _, tuples = extract(instances)
    if args.write_tuples:
        write_table(tuples, args.write_tuples)
    if not args.rewrites:
        return 0
    scored = mark(none_keeps_original(
        rewrites_from_table(tuples, read_table(args.rewrites), args.rewrites)))
    long = accuracy_long(scored)
    result = {
        "language": str(instances["language"].iat[0]),
        "tuples": int(len(scored)),
        "correct": int(scored["match"].sum()),
        "accuracy": nested(long, "accuracy"),
        "n": nested(long, "n"),
        # rewrites given as a table (the workflow's tables say how answers were read)
        "signature": accuracy_signature("table"),
    }
    from gendermt.scoring.output_quality import add_quality, output_quality

    # a rewrite that is the source sentence itself (untranslated) is no English rewrite
    result = add_quality(result, output_quality(scored["rewrite"].fillna("").astype(str).tolist(),
                                                "en", scored["source"].astype(str).tolist(),
                                                src_lang=None))
    if args.json:
        print_json(result, getattr(args, "precision", None))
    else:
        from gendermt.benchmarks.gate_x_e.metric import table2

        # an empty cell (no tuple of that kind) is "-", never "nan"
        print(table2(long).round(2).to_string(index=False, na_rep="-"))
    return 0


def none_keeps_original(tuples):
    """A rewrite "None" (any case, a final period allowed: the rewriter's answer that there is
    nothing to rewrite) is the original, as ``parse.Answer.rewrite`` reads it in the
    workflow."""
    rewrite = tuples["rewrite"].fillna("").astype(str)
    none = rewrite.str.strip().str.rstrip(".").str.lower() == "none"
    return tuples.assign(rewrite=rewrite.where(~none, tuples["original"]))
