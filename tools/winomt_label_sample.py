"""Draw the WinoMT entities that people (here: the project's annotators) label by hand, to
validate the gender readers (issue 49): per language, a fixed-seed sample of entities from
the four published commercial systems' outputs (gabrielStanovsky/mt_gender, translations/).

The sample holds only what an annotator needs to read the translation: the English sentence,
the entity, the translation. It never holds a reader's prediction: labels are written before
any reader is compared with them (docs/winomt-labels.md).

    python tools/winomt_label_sample.py --data ../shared/data/winomt --out resources/winomt/labels

writes ``{lang}.tsv`` per language with an empty ``label``, ``note`` and ``uncertain``
column each; a file that already has labels is never overwritten (the draw is checked
against it instead). A held-out sample, drawn after an earlier one was compared with the
readers, takes its own seed and leaves out every sentence of the earlier sample:

    python tools/winomt_label_sample.py --data ../shared/data/winomt \
        --out resources/winomt/labels-heldout --seed 49-heldout --languages it \
        --exclude resources/winomt/labels
"""

from __future__ import annotations

import argparse
import csv
import random
import sys
from collections.abc import Collection
from pathlib import Path

SYSTEMS = ("google", "bing", "systran", "aws")
LANGUAGES = ("es", "fr", "it", "de")
PER_SYSTEM = 30  # 120 entities a language: at least 100 after any "cannot label"
SEED = 49  # the number: fixed once, before any label was written
#: the held-out Italian sample's seed (docs/winomt-labels.md, "Italian, held out"): fixed
#: on 2026-12-06, after the first sample's comparison, before any of its labels was written
HELDOUT_SEED = "49-heldout"
# ``uncertain``: "yes" where the annotator was unsure (written with the label)
COLUMNS = ["lang", "system", "item_id", "entity", "source", "translation", "label",
           "note", "uncertain"]
LABELS = ("male", "female", "neutral", "not found")


def draw(data: Path, lang: str, seed: int | str = SEED, per_system: int = PER_SYSTEM,
         exclude: Collection[str] = ()) -> list[dict]:
    """``per_system`` items of each system, drawn without replacement from en.txt's rows
    (each system its own items, so that no sentence is labelled twice in a language),
    leaving out the item ids in ``exclude`` (an earlier sample's sentences)."""
    rows = (data / "en.txt").read_text(encoding="utf-8").splitlines()
    width = len(str(len(rows) - 1))
    rng = random.Random(f"{seed}-{lang}")
    order = list(range(len(rows)))
    rng.shuffle(order)
    # left out after the shuffle, so that the order of the rest does not depend on them
    skip = set(exclude)
    order = [i for i in order if f"{i:0{width}d}" not in skip]
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
                        "translation": translation, "label": "", "note": "",
                        "uncertain": ""})
    return sorted(out, key=lambda r: (r["item_id"], r["system"]))


def sampled_items(folder: Path, lang: str) -> set[str]:
    """The item ids (sentences) of an earlier sample's ``{lang}.tsv``, any system."""
    path = folder / f"{lang}.tsv"
    if not path.is_file():
        raise SystemExit(f"{path}: no such labels file (--exclude names a folder of "
                         "{lang}.tsv)")
    with path.open(encoding="utf-8", newline="") as f:
        return {r["item_id"] for r in csv.DictReader(f, delimiter="\t")}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, required=True, help="WinoMT's repository folder")
    ap.add_argument("--out", type=Path, required=True, help="folder of {lang}.tsv")
    ap.add_argument("--seed", default=str(SEED),
                    help=f"the draw's seed (default {SEED}; held out: {HELDOUT_SEED})")
    ap.add_argument("--languages", nargs="+", choices=LANGUAGES, default=list(LANGUAGES))
    ap.add_argument("--exclude", type=Path, action="append", default=[],
                    help="a folder of earlier samples' {lang}.tsv whose sentences are left "
                         "out (repeatable)")
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for lang in args.languages:
        exclude = set().union(*(sampled_items(folder, lang) for folder in args.exclude))
        rows = draw(args.data, lang, args.seed, exclude=exclude)
        path = args.out / f"{lang}.tsv"
        if path.exists():
            with path.open(encoding="utf-8", newline="") as f:
                have = [(r["system"], r["item_id"]) for r in csv.DictReader(f, delimiter="\t")]
            if have != [(r["system"], r["item_id"]) for r in rows]:
                print(f"{path}: not this draw (seed {args.seed}); not overwritten",
                      file=sys.stderr)
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
