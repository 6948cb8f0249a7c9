"""Time and peak memory of scoring one system's WinoMT outputs (alignment + gender reading).

Usage: python benchmarks/winomt_scoring.py [--system google] [--lang fr] [--data DIR]
DIR defaults to ../shared/data/winomt (en.txt, en_pro.txt, en_anti.txt, translations/).
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from gendermt.benchmarks.winomt.data import load  # noqa: E402
from gendermt.benchmarks.winomt.evaluate import predict  # noqa: E402
from gendermt.benchmarks.winomt.metrics import compute  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--system", default="google")
    parser.add_argument("--lang", default="fr")
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared/data/winomt")
    args = parser.parse_args()
    data = load(args.data / "en.txt", args.data / "en_pro.txt", args.data / "en_anti.txt")
    lines = (args.data / "translations" / args.system / f"en-{args.lang}.txt").read_text(
        encoding="utf-8").splitlines()
    hyps = [line.partition("|||")[2].strip() for line in lines]
    start = time.perf_counter()
    table, facts = predict(data, hyps, args.lang)
    seconds = time.perf_counter() - start
    metrics = compute(table)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{args.system} en-{args.lang}: {len(table)} items in {seconds:.1f} s "
          f"(align {facts['align_s']:.1f} s, gender {facts['gender_s']:.1f} s), "
          f"peak RSS {peak:.0f} MiB; acc {metrics['acc']:.1f}, ΔG {metrics['delta_g']:.1f}, "
          f"ΔS {metrics['delta_s']:.1f}")


if __name__ == "__main__":
    main()
