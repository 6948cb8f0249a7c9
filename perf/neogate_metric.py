"""Speed of Neo-GATE's metric at the real test set's size (841 entries), against a plain
word match of the same annotations.

Usage: python perf/neogate_metric.py [--repeat 20] [--repeats 3] [--small] [--record]
Builds an 841-entry corpus by cycling the project's sample (its annotations adapted to the
Schwa paradigm) and scores the masculine, feminine and adapted references as outputs.
A (gendermt): ``neogate.metric.evaluate`` (punctuation, the official script's matching with
its anchors, mis-generations), ``--repeat`` corpus evaluations per measurement.
B (bare): the obvious plain alternative, each annotation's words looked up in the
hypothesis' lower-cased whitespace words (no anchors, no masking), as often.
Alternating A and B in this process, CPU seconds per corpus evaluation; min, median, ratio.
Target: well under a second per evaluation (20 runs per system in the paper's grid).
``--small``: 2 evaluations, one pair.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import _ab  # noqa: E402 (perf/_ab.py: the A/B comparison)

from gendermt.benchmarks.neogate.data import load  # noqa: E402
from gendermt.benchmarks.neogate.metric import evaluate  # noqa: E402
from gendermt.benchmarks.neogate.paradigm import load_mapping  # noqa: E402

SIZE = 841
WORD = re.compile(r"\w+")


def plain(hyps: list[str], annotations: list[str]) -> int:
    found = 0
    for hyp, ann in zip(hyps, annotations, strict=True):
        words = set(hyp.lower().split())
        found += sum(w in words for w in WORD.findall(ann.lower()))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    _ab.add_arguments(parser)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args(argv)
    repeat = 2 if args.small else args.repeat
    mapping = load_mapping(ROOT / "resources/neogate/schwa.json")
    data = load(ROOT / "resources/neogate/Neo-GATE.tsv", {"schwa": mapping})
    rows = [data.iloc[i % len(data)] for i in range(SIZE)]
    annotations = [r["annotation_schwa"] for r in rows]
    for column in ("ref_male", "ref_female", "ref_schwa"):
        hyps = [r[column] for r in rows]
        scores = {}

        def gendermt(hyps=hyps, scores=scores) -> float:
            def run() -> None:
                for _ in range(repeat):
                    scores.update(evaluate(hyps, annotations, list("əɜ"))[1])
            return _ab.timed_call("gendermt", run) / repeat

        def bare(hyps=hyps) -> float:
            def run() -> None:
                for _ in range(repeat):
                    plain(hyps, annotations)
            return _ab.timed_call("bare", run) / repeat

        _ab.compare(f"Neo-GATE metric, {SIZE} entries, {column} as outputs", gendermt, bare,
                    1 if args.small else args.repeats,
                    note="per corpus evaluation; B: a plain word lookup")
        print(f"  coverage {scores['coverage']:.1f}, accuracy {scores['accuracy']:.1f}")
    return _ab.finish("neogate_metric", args)


if __name__ == "__main__":
    sys.exit(main())
