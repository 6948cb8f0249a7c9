"""``gendermt score mt`` against the sacrebleu CLI on the same metrics (issue 30).

Usage: python perf/score_mt_cli.py [--lines 10000] [--repeats 5] [--small]

Synthetic hypothesis/reference files of --lines lines; each side scores BLEU, chrF and TER
(corpus level, no per-segment output): A ``python -m gendermt score mt --metrics
bleu,chrf,ter``, B ``sacrebleu REF -i HYP -m bleu chrf ter``. Alternating A and B in one run,
CPU seconds of each child process; prints min and median of each side and the ratio of the
medians; exits non-zero with the failing side's message. Also the start-up CPU of
``gendermt score mt-geneval --help`` (argument parsing only) against a bare ``python -c pass``.
``--small``: 500 lines, one pair.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def cpu(cmd: list[str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    out = subprocess.run(cmd, capture_output=True, text=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed (exit {out.returncode}):\n"
                         f"{(out.stderr + out.stdout)[-3000:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def compare(label: str, a: list[str], b: list[str], repeats: int) -> float:
    cpu(a), cpu(b)  # warm-up, not counted
    times: dict[str, list[float]] = {"A": [], "B": []}
    for _ in range(repeats):
        times["A"].append(cpu(a))
        times["B"].append(cpu(b))
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"{label}: gendermt min {min(times['A']):.2f} s median {med['A']:.2f} s | bare "
          f"min {min(times['B']):.2f} s median {med['B']:.2f} s | ratio "
          f"{med['A'] / med['B']:.2f}x ({repeats} alternating pairs, CPU seconds)")
    return med["A"] / med["B"]


def write_pair(dest: Path, lines: int) -> tuple[Path, Path]:
    rng = random.Random(0)
    words = [f"w{i}" for i in range(2000)]
    refs = [" ".join(rng.choices(words, k=rng.randint(5, 30))) for _ in range(lines)]
    hyps = [" ".join(w if rng.random() < 0.7 else rng.choice(words) for w in r.split())
            for r in refs]
    hyp, ref = dest / "hyp.txt", dest / "ref.txt"
    hyp.write_text("\n".join(hyps) + "\n", encoding="utf-8")
    ref.write_text("\n".join(refs) + "\n", encoding="utf-8")
    return hyp, ref


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--small", action="store_true")
    args = parser.parse_args(argv)
    lines, repeats = (500, 1) if args.small else (args.lines, args.repeats)
    with tempfile.TemporaryDirectory() as tmp:
        hyp, ref = write_pair(Path(tmp), lines)
        ours = [sys.executable, "-m", "gendermt", "score", "mt", "--hyp", str(hyp), "--ref",
                str(ref), "--metrics", "bleu,chrf,ter"]
        theirs = [str(BIN / "sacrebleu"), str(ref), "-i", str(hyp), "-m", "bleu", "chrf", "ter"]
        compare(f"score mt, {lines} lines, BLEU+chrF+TER", ours, theirs, repeats)
        compare("start-up, gendermt score mt-geneval --help",
                [sys.executable, "-m", "gendermt", "score", "mt-geneval", "--help"],
                [sys.executable, "-c", "pass"], repeats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
