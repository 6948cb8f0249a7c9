"""Draw the WinoMT entities that people (here: the project's annotators) label by hand, to
validate the gender readers (issue 49): per language, a fixed-seed sample of entities from
the four published commercial systems' outputs (gabrielStanovsky/mt_gender, translations/).

The sample holds only what an annotator needs to read the translation: the English sentence,
the entity, the translation. It never holds a reader's prediction: labels are written before
any reader is compared with them (docs/winomt-labels.md).

    python tools/winomt_label_sample.py --data ../shared/data/winomt --out resources/winomt/labels

writes ``{lang}.tsv`` per language with an empty ``label`` and ``note`` column each; a file
that already has labels is never overwritten (the draw is checked against it instead).
"""

from __future__ import annotations

import argparse
import csv
import random
import sys
from pathlib import Path

SYSTEMS = ("google", "bing", "systran", "aws")
LANGUAGES = ("es", "fr", "it", "de")
PER_SYSTEM = 30  # 120 entities a language: at least 100 after any "cannot label"
SEED = 49  # the number: fixed once, before any label was written
COLUMNS = ["lang", "system", "item_id", "entity", "source", "translation", "label",
           "note"]
LABELS = ("male", "female", "neutral", "not found")


def draw(data: Path, lang: str, seed: int = SEED, per_system: int = PER_SYSTEM) -> list[dict]:
    """``per_system`` items of each system, drawn without replacement from en.txt's rows
    (each system its own items, so that no sentence is labelled twice in a language)."""
    rows = (data / "en.txt").read_text(encoding="utf-8").splitlines()
    width = len(str(len(rows) - 1))
    rng = random.Random(f"{seed}-{lang}")
    order = list(range(len(rows)))
    rng.shuffle(order)
    out = []
    for k, system in enumerate(SYSTEMS):
        lines = (data / "translations" / system / f"en-{lang}.txt").read_text(
            encoding="utf-8").splitlines()
        for i in order[k * per_system:(k + 1) * per_system]:
            _, _, source, entity = rows[i].split("\t")
            translation = lines[i].split(" ||| ", 1)[1].strip() if " ||| " in lines[i] else ""
            # no gold gender: the annotator reads the translation, not the English
            out.append({"lang": lang, "system": system, "item_id": f"{i:0{width}d}",
                        "entity": entity, "source": source,
                        "translation": translation, "label": "", "note": ""})
    return sorted(out, key=lambda r: (r["item_id"], r["system"]))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, required=True, help="WinoMT's repository folder")
    ap.add_argument("--out", type=Path, required=True, help="folder of {lang}.tsv")
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for lang in LANGUAGES:
        rows = draw(args.data, lang)
        path = args.out / f"{lang}.tsv"
        if path.exists():
            with path.open(encoding="utf-8", newline="") as f:
                have = [(r["system"], r["item_id"]) for r in csv.DictReader(f, delimiter="\t")]
            if have != [(r["system"], r["item_id"]) for r in rows]:
                print(f"{path}: not this draw (seed {SEED}); not overwritten", file=sys.stderr)
                return 1
            continue
        with path.open("w", encoding="utf-8", newline="") as f:
            w = csv.DictWriter(f, COLUMNS, delimiter="\t", lineterminator="\n")
            w.writeheader()
            w.writerows(rows)
        print(f"{path}: {len(rows)} entities")
    return 0


if __name__ == "__main__":
    sys.exit(main())
