"""Throughput of ConGA's parser and entity comparison (the per-system scoring stage's core),
against a plain tag count of the same sentences.

Usage: python perf/conga_scoring.py [--sentences 20000] [--repeats 3] [--small] [--record]
A (gendermt): the paper's four Table 4 examples (both systems), repeated, scored as the
workflow does: parse both sides, compare entities, sum, compute §7's metrics.
B (bare): the obvious plain alternative, one regular expression counting the ``<X1>`` tags of
both sides and matching their labels per sentence (what any ConGA scorer reads at least).
Alternating A and B in this process, CPU seconds; min, median and ratio (perf/_ab.py).
gENder-IT has a few hundred sentences per system, so the stage is far from any bottleneck;
this keeps it that way. ``--small``: 500 sentences, one pair.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import _ab  # noqa: E402 (perf/_ab.py: the A/B comparison)

from gendermt.benchmarks.conga.evaluate import score_sentences, summarise  # noqa: E402
from gendermt.benchmarks.conga.tags import TagScheme  # noqa: E402
from tests.conga_table4 import EXAMPLES  # noqa: E402

TAG = re.compile(r"<([A-Za-z])(\d*)>")


def plain(items: list[dict]) -> int:
    matched = 0
    for item in items:
        src = Counter(TAG.findall(item["source_tagged"]))
        tgt = Counter(TAG.findall(item["annotation"]))
        matched += sum((src & tgt).values())
    return matched


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    _ab.add_arguments(parser)
    parser.add_argument("--sentences", type=int, default=20000)
    args = parser.parse_args(argv)
    n = 500 if args.small else args.sentences
    pairs = [(e["en"], e[s]) for e in EXAMPLES.values() for s in ("tower", "mbart")]
    items = [{"item_id": str(i), "source_tagged": pairs[i % len(pairs)][0],
              "annotation": pairs[i % len(pairs)][1], "status": "annotated", "where": str(i)}
             for i in range(n)]
    summary = {}

    def gendermt() -> None:
        entities, sentences = score_sentences(items, TagScheme.source(), TagScheme.target())
        summary.update(summarise(sentences), entities=len(entities))

    _ab.compare(f"ConGA scoring, {n} sentence pairs", lambda: _ab.timed_call("gendermt", gendermt),
                lambda: _ab.timed_call("bare", lambda: plain(items)),
                1 if args.small else args.repeats, note="B: a regex tag count")
    print(f"{summary['entities']} entity rows; match_m={summary['match_m']}")
    return _ab.finish("conga_scoring", args)


if __name__ == "__main__":
    sys.exit(main())
