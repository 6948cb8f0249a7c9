"""Throughput of GAMBIT's offline lexicon detector at the size of GAMBIT (9,805 texts).

Usage: python perf/gambit_lexicon.py [--texts 9805]
The shipped stored translations (resources/gambit/translations/*/{fr,el}.tsv, 100 texts of
1-3 sentences each) are joined five to a text, up to --texts texts per language: ~130-145
words a text, longer than GAMBIT's means (21-118 words by text type); prints texts/s and
words/s. Measured on 2 shared cores: 488 texts/s (fr), 576 texts/s (el).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import pandas as pd  # noqa: E402

from gendermt.benchmarks.gambit.lexicon import detect  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texts", type=int, default=9805)
    args = parser.parse_args()
    sample = pd.read_json(ROOT / "resources/gambit/sample/gambit-sample.jsonl", lines=True,
                          dtype=False)
    codes = dict(zip(sample["id"], sample["isco_code"].astype(str), strict=True))
    for lang in ("fr", "el"):
        frames = [pd.read_csv(p, sep="\t", dtype=str) for p in
                  sorted((ROOT / "resources/gambit/translations").glob(f"*/{lang}.tsv"))]
        rows = pd.concat(frames, ignore_index=True)
        texts, candidates = {}, {}
        for i in range(args.texts):
            picks = [rows.iloc[(i * 5 + k) % len(rows)] for k in range(5)]
            texts[f"t{i}"] = " ".join(p["hypothesis"] for p in picks)
            candidates[f"t{i}"] = sorted({codes[p["item_id"]] for p in picks})
        words = sum(len(t.split()) for t in texts.values())
        start = time.perf_counter()
        found, _, _ = detect(texts, candidates, lang, {"kind": "lexicon"})
        seconds = time.perf_counter() - start
        print(f"{lang}: {len(texts)} texts ({words / len(texts):.0f} words each), "
              f"{len(found)} assignments in {seconds:.1f} s: {len(texts) / seconds:.0f} texts/s, "
              f"{words / seconds:.0f} words/s")


if __name__ == "__main__":
    main()
