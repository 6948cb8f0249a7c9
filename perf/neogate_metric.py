"""Speed of Neo-GATE's metric at the real test set's size (841 entries).

Usage: python perf/neogate_metric.py [--repeat 20]
Builds an 841-entry corpus by cycling the project's sample (its annotations adapted to the
Schwa paradigm), scores the masculine, feminine and adapted references as outputs, and prints
seconds per full-corpus evaluation. Target: well under a second per run (20 runs per system
in the paper's grid).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from gendermt.benchmarks.neogate.data import load
from gendermt.benchmarks.neogate.metric import evaluate
from gendermt.benchmarks.neogate.paradigm import load_mapping

ROOT = Path(__file__).resolve().parents[1]
SIZE = 841


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    mapping = load_mapping(ROOT / "resources/neogate/schwa.json")
    data = load(ROOT / "resources/neogate/Neo-GATE.tsv", {"schwa": mapping})
    rows = [data.iloc[i % len(data)] for i in range(SIZE)]
    annotations = [r["annotation_schwa"] for r in rows]
    for column in ("ref_male", "ref_female", "ref_schwa"):
        hyps = [r[column] for r in rows]
        start = time.perf_counter()
        for _ in range(args.repeat):
            _, scores = evaluate(hyps, annotations, list("əɜ"))
        seconds = (time.perf_counter() - start) / args.repeat
        print(f"{column:>10}: {seconds * 1000:7.2f} ms per {SIZE}-entry evaluation "
              f"(coverage {scores['coverage']:.1f}, accuracy {scores['accuracy']:.1f})")


if __name__ == "__main__":
    main()
