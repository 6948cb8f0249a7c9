"""``gendermt winomt validate``: each WinoMT reader's agreement with human gender labels of
translated entities (validation.py), per language, with Wilson 95 % intervals."""

from __future__ import annotations

import argparse

from gendermt.benchmarks.winomt import READERS
from gendermt.benchmarks.winomt.align import ALIGNERS, DEFAULT_ALIGNER
from gendermt.data.json_output import print_json


def register(tools: argparse._SubParsersAction) -> None:
    p = tools.add_parser(
        "validate", help="agreement of each reader with human gender labels",
        description="Read the entities of a labels file (resources/winomt/labels/{lang}.tsv: "
                    "lang, system, item_id, entity, source, translation, label, note; label "
                    "male, female, neutral or 'not found') with each reader, aligning the "
                    "whole published file of each system and language as the full run "
                    "does, and print per language and reader the agreement with the labels "
                    "(a reader's unknown agrees with 'not found'), n, a Wilson 95 % "
                    "interval and the confusion; beside it, the same on the rows the "
                    "annotator was sure of (an optional column uncertain: yes).")
    p.add_argument("--labels", required=True, action="append",
                   help="a labels file ({lang}.tsv) or a folder of them; NAME=PATH names the "
                        "set (repeat for several sets, e.g. project=resources/winomt/labels "
                        "people=resources/winomt/people: the table gets a column labels, "
                        "--json a level per set)")
    p.add_argument("--lang", action="append",
                   help="only the labels of this target language (repeat; default: all)")
    p.add_argument("--data", required=True, help="WinoMT's en.txt")
    p.add_argument("--translations", required=True,
                   help="the published outputs' folder: {system}/en-{lang}.txt "
                        "('source ||| translation' lines, as mt_gender's translations/)")
    p.add_argument("--reader", action="append", choices=READERS,
                   help="a reader to check (repeat; default: all of "
                        f"{', '.join(READERS)})")
    p.add_argument("--aligner", choices=ALIGNERS, default=DEFAULT_ALIGNER)
    p.add_argument("--table", help="write the table here (.csv)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import pandas as pd

    from gendermt.benchmarks.winomt.data import load
    from gendermt.benchmarks.winomt.validation import LABEL_SET, as_json, label_sets

    sets = label_sets(args.labels)
    data = load(args.data)
    hypotheses: dict = {}  # (system, lang) → its published lines, read once for every set
    table = pd.concat([_agreement_of(path, args, data, hypotheses).assign(**{LABEL_SET: name})
                       for name, path in sets], ignore_index=True)
    named = len(sets) > 1 or sets[0][0] is not None
    if not named:
        table = table.drop(columns=LABEL_SET)
    if args.table:
        import json

        from gendermt.data.io import write_table
        write_table(table.assign(confusion=table["confusion"].map(
            lambda c: json.dumps(c, sort_keys=True))), args.table)
    if args.json:
        if len(sets) == 1:  # one set: {lang: {reader: …}}, as before sets had names
            print_json(as_json(table), getattr(args, "precision", None))
        else:
            print_json({name: as_json(part) for name, part in
                        table.groupby(LABEL_SET, sort=False)},
                       getattr(args, "precision", None))
        return 0
    for _, row in table.iterrows():
        print((f"{row[LABEL_SET]}: " if named else "")
              + f"{row['lang']:>3} {row['reader']:>10}: {row['agreement']:5.1f} % "
              f"[{row['ci_low']:.1f}, {row['ci_high']:.1f}] of n={row['n']}; sure rows "
              f"{row['agreement_sure']:5.1f} % [{row['ci_low_sure']:.1f}, "
              f"{row['ci_high_sure']:.1f}] of n={row['n_sure']}  {row['confusion']}")
    return 0


def _agreement_of(path: str, args: argparse.Namespace, data, hypotheses: dict):
    """One label set's agreement table (its languages limited to ``--lang``)."""
    from pathlib import Path

    import pandas as pd

    from gendermt.benchmarks.winomt.cli import read_hypotheses
    from gendermt.benchmarks.winomt.validation import (
        agreement,
        label_files,
        read_items,
        read_labels,
    )
    from gendermt.core.errors import DatasetError

    labels = pd.concat([read_labels(f) for f in label_files(path)], ignore_index=True)
    if args.lang:
        labels = labels[labels["lang"].isin(args.lang)].reset_index(drop=True)
        if labels.empty:
            raise DatasetError(path, f"no labels of {', '.join(args.lang)}")
    for system, lang in sorted(set(zip(labels["system"], labels["lang"], strict=True))):
        file = Path(args.translations) / system / f"en-{lang}.txt"
        if not file.is_file():
            raise DatasetError(file, f"no published translations of {system} into {lang}")
        if (system, lang) not in hypotheses:
            hypotheses[system, lang] = read_hypotheses(str(file), data["source"].tolist())
    readers = args.reader or list(READERS)
    return agreement(labels, read_items(labels, data, hypotheses, readers,
                                        {"aligner": args.aligner}))
