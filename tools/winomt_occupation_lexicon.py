"""Make resources/winomt/occupation_translations.tsv: the known translations of each WinoMT
occupation, per target language, from the published outputs of the four commercial
systems (gendermt.benchmarks.winomt.lexicon says how).

    PYTHONPATH=src python tools/winomt_occupation_lexicon.py ../shared/data/winomt \
        resources/winomt/occupation_translations.tsv
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

from gendermt.benchmarks.winomt.align import tokenize
from gendermt.benchmarks.winomt.cli import read_hypotheses
from gendermt.benchmarks.winomt.data import load
from gendermt.benchmarks.winomt.evaluate import align_file
from gendermt.benchmarks.winomt.lexicon import COLUMNS, build
from gendermt.benchmarks.winomt.morphology import FrenchMorphology, read_genders

SYSTEMS = ("google", "bing", "systran", "aws")
LANGS = ("es", "fr", "it", "de")


def heads(winomt: Path):
    """(lang, system, occupation, item_id, head) of every item, read with no lexicon."""
    data = load(winomt / "en.txt")
    french = None
    for lang in LANGS:
        for system in SYSTEMS:
            hyps = read_hypotheses(str(winomt / "translations" / system / f"en-{lang}.txt"),
                                   data["source"].tolist())
            links = align_file(data, hyps)
            if lang == "fr" and french is None:
                french = FrenchMorphology()
            readings, _ = read_genders(lang, hyps, [tokenize(h) for h in hyps],
                                       links.positions, french=french)
            print(lang, system, file=sys.stderr)
            for occupation, item, reading in zip(data["entity"], data["item_id"], readings,
                                                 strict=True):
                yield lang, system, occupation, item, reading.head


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("winomt", type=Path, help="WinoMT's folder (en.txt, translations/)")
    parser.add_argument("output", type=Path)
    args = parser.parse_args()
    rows = build(heads(args.winomt))
    with args.output.open("w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, COLUMNS, delimiter="\t", lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    print(f"{len(rows)} translations written to {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
