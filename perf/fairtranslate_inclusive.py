"""Throughput of FairTranslate's inclusive-language analysis at the published study's size.

Usage: python perf/fairtranslate_inclusive.py [--systems 4] [--prompts 4]
Builds a dataset of the real size (2,418 rows: the shipped sample repeated) and, per system ×
prompt, outputs drawn from its three references and its English source with inclusive
spellings varied (middle dots, slashes, doublets), then times `inclusive_tables.analyse`
(normalisation, indicators, occupation forms, singular "they") on all of them.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd

from gendermt.benchmarks.fairtranslate.data import load
from gendermt.benchmarks.fairtranslate.inclusive_tables import analyse

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "resources/fairtranslate/data/train-00000-of-00001.parquet"
ROWS = 2418
VARIANTS = [("iel", "il ou elle"), (".", "·"), ("Le.a", "Le/La"), ("ier.ière", "ier/ière")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--systems", type=int, default=4)
    parser.add_argument("--prompts", type=int, default=4)
    args = parser.parse_args()
    sample, _ = load(SAMPLE)
    data = pd.concat([sample] * (ROWS // len(sample) + 1), ignore_index=True).head(ROWS)
    data = data.assign(item_id=[f"item-{i:05d}" for i in range(ROWS)])
    rng = np.random.default_rng(0)
    columns = ["ref_male", "ref_female", "ref_inclusive", "source"]
    parts = []
    for s in range(args.systems):
        for p in range(args.prompts):
            picks = rng.integers(0, len(columns), ROWS)
            hyps = [data[columns[c]].iat[i] for i, c in enumerate(picks)]
            for old, new in VARIANTS:
                mask = rng.random(ROWS) < 0.3
                hyps = [h.replace(old, new) if m else h for h, m in zip(hyps, mask, strict=True)]
            parts.append(pd.DataFrame({"system": f"s{s}", "prompt": f"p{p}",
                                       "item_id": data["item_id"], "raw": hyps,
                                       "hypothesis": hyps}))
    outputs = pd.concat(parts, ignore_index=True)
    start = time.perf_counter()
    items = analyse(data, outputs)
    seconds = time.perf_counter() - start
    print(f"{len(items)} outputs analysed in {seconds:.1f} s "
          f"({len(items) / seconds:.0f} outputs/s); "
          f"{int((items['normalized'] != items['hypothesis']).sum())} changed by normalisation")


if __name__ == "__main__":
    main()
