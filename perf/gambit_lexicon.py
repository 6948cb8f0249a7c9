"""Throughput of GAMBIT's offline lexicon detector at the size of GAMBIT (9,805 texts),
against a plain word lookup in the same lexicon.

Usage: python perf/gambit_lexicon.py [--texts 9805] [--repeats 3] [--small] [--record]
The shipped stored translations (resources/gambit/translations/*/{fr,el}.tsv, 100 texts of
1-3 sentences each) are joined five to a text, up to --texts texts per language: ~130-145
words a text, longer than GAMBIT's means (21-118 words by text type).
A (gendermt): ``gambit.lexicon.detect`` (normalisation, multi-word forms, cues, the
candidates' occupations, one label per mention and text).
B (bare): the obvious plain alternative, every lower-cased word of each text looked up in a
set of the lexicon file's single-word forms (``resources/gambit/lexicon/{lang}.tsv``).
Alternating A and B in this process, CPU seconds; min, median, ratio, texts/s of A.
``--small``: 100 texts, one pair.
"""

from __future__ import annotations

import argparse
import csv
import re
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import _ab  # noqa: E402 (perf/_ab.py: the A/B comparison)
import pandas as pd  # noqa: E402

from gendermt.benchmarks.gambit.lexicon import detect  # noqa: E402

WORD = re.compile(r"\w+")


def lexicon_words(lang: str) -> set[str]:
    with open(ROOT / "resources/gambit/lexicon" / f"{lang}.tsv", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    return {form.lower() for r in rows for col in ("masculine", "feminine")
            for form in (r[col] or "").split("|") if form and " " not in form}


def plain(texts: dict[str, str], words: set[str]) -> int:
    return sum(w in words for t in texts.values() for w in WORD.findall(t.lower()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    _ab.add_arguments(parser)
    parser.add_argument("--texts", type=int, default=9805)
    args = parser.parse_args(argv)
    n = 100 if args.small else args.texts
    sample = pd.read_json(ROOT / "resources/gambit/sample/gambit-sample.jsonl", lines=True,
                          dtype=False)
    codes = dict(zip(sample["id"], sample["isco_code"].astype(str), strict=True))
    for lang in ("fr", "el"):
        frames = [pd.read_csv(p, sep="\t", dtype=str) for p in
                  sorted((ROOT / "resources/gambit/translations").glob(f"*/{lang}.tsv"))]
        rows = pd.concat(frames, ignore_index=True)
        texts, candidates = {}, {}
        for i in range(n):
            picks = [rows.iloc[(i * 5 + k) % len(rows)] for k in range(5)]
            texts[f"t{i}"] = " ".join(p["hypothesis"] for p in picks)
            candidates[f"t{i}"] = sorted({codes[p["item_id"]] for p in picks})
        words = lexicon_words(lang)
        found: list = []

        def gendermt(texts=texts, candidates=candidates, lang=lang, found=found) -> None:
            found[:] = [detect(texts, candidates, lang, {"kind": "lexicon"})[0]]

        result = _ab.compare(
            f"GAMBIT lexicon detector, {lang}, {n} texts",
            lambda g=gendermt: _ab.timed_call("gendermt", g),
            lambda texts=texts, words=words: _ab.timed_call("bare", lambda: plain(texts, words)),
            1 if args.small else args.repeats, note="B: a plain word-set lookup")
        per_text = sum(len(t.split()) for t in texts.values()) / len(texts)
        print(f"  {lang}: {len(found[0])} assignments, {per_text:.0f} words a text, "
              f"{n / statistics.median(result.a):.0f} texts/s (CPU)")
    return _ab.finish("gambit_lexicon", args)


if __name__ == "__main__":
    sys.exit(main())
