"""Throughput of ConGA's parser and entity comparison (the per-system scoring stage's core).

Usage: python perf/conga_scoring.py [--sentences 20000]
Scores the paper's four Table 4 examples (both systems), repeated, as the workflow does:
parse both sides, compare entities, sum, compute §7's metrics. gENder-IT has a few hundred
sentences per system, so the stage is far from any bottleneck; this keeps it that way.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from gendermt.benchmarks.conga.evaluate import score_sentences, summarise  # noqa: E402
from gendermt.benchmarks.conga.tags import TagScheme  # noqa: E402
from tests.conga_table4 import EXAMPLES  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=int, default=20000)
    args = parser.parse_args()
    pairs = [(e["en"], e[s]) for e in EXAMPLES.values() for s in ("tower", "mbart")]
    items = [{"item_id": str(i), "source_tagged": pairs[i % len(pairs)][0],
              "annotation": pairs[i % len(pairs)][1], "status": "annotated", "where": str(i)}
             for i in range(args.sentences)]
    start = time.perf_counter()
    entities, sentences = score_sentences(items, TagScheme.source(), TagScheme.target())
    summary = summarise(sentences)
    seconds = time.perf_counter() - start
    print(f"{args.sentences} sentence pairs, {len(entities)} entity rows: {seconds:.2f} s "
          f"({args.sentences / seconds:,.0f} sentences/s); match_m={summary['match_m']}")


if __name__ == "__main__":
    main()
