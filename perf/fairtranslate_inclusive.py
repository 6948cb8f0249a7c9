"""Throughput of FairTranslate's inclusive-language analysis at the published study's size,
against a plain regular-expression search for the same markers.

Usage: python perf/fairtranslate_inclusive.py [--systems 4] [--prompts 4] [--repeats 3]
                                              [--small] [--record]
Builds a dataset of the real size (2,418 rows: the shipped sample repeated) and, per system ×
prompt, outputs drawn from its three references and its English source with inclusive
spellings varied (middle dots, slashes, doublets).
A (gendermt): ``inclusive_tables.analyse`` (normalisation, indicators, occupation forms,
singular "they") on all of them.
B (bare): the obvious plain alternative, one regular expression per output for the inclusive
markers (middle dot or point médian, slash doublets, iel/iels).
Alternating A and B in this process, CPU seconds; min, median, ratio.
``--small``: 1 system × 1 prompt, one pair.
"""


from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from gendermt.benchmarks.fairtranslate.data import load
from gendermt.benchmarks.fairtranslate.inclusive_tables import analyse

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _ab  # noqa: E402 (perf/_ab.py: the A/B comparison)

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "resources/fairtranslate/data/train-00000-of-00001.parquet"
ROWS = 2418
VARIANTS = [("iel", "il ou elle"), (".", "·"), ("Le.a", "Le/La"), ("ier.ière", "ier/ière")]


MARKERS = re.compile(r"\w[·.]\w|\w/\w|\biels?\b", re.I)


def plain(hyps: list[str]) -> int:
    return sum(bool(MARKERS.search(h)) for h in hyps)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    _ab.add_arguments(parser)
    parser.add_argument("--systems", type=int, default=4)
    parser.add_argument("--prompts", type=int, default=4)
    args = parser.parse_args(argv)
    if args.small:
        args.systems, args.prompts, args.repeats = 1, 1, 1
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
    hyps = list(outputs["hypothesis"])
    found = []

    def gendermt() -> None:
        found[:] = [analyse(data, outputs)]

    _ab.compare(f"FairTranslate inclusive analysis, {len(outputs)} outputs",
                lambda: _ab.timed_call("gendermt", gendermt),
                lambda: _ab.timed_call("bare", lambda: plain(hyps)), args.repeats,
                note="B: one regex for the markers")
    items = found[0]
    print(f"  {int((items['normalized'] != items['hypothesis']).sum())} changed by "
          "normalisation")
    return _ab.finish("fairtranslate_inclusive", args)


if __name__ == "__main__":
    sys.exit(main())
