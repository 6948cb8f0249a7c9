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
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
import _ab  # noqa: E402 (perf/_ab.py: the A/B comparison)


def cpu(cmd: list[str], side: str = "gendermt") -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return _ab.run_child(side, cmd, env=env)[0]


def compare(label: str, a: list[str], b: list[str], repeats: int) -> float:
    """CPU seconds of command ``a`` against ``b``, alternating (perf/_ab.py)."""
    return _ab.compare(label, lambda: cpu(a), lambda: cpu(b, "bare"), repeats).ratio


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
    _ab.add_arguments(parser, repeats=5)
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
    return _ab.finish("score_mt_cli", args)


if __name__ == "__main__":
    sys.exit(main())
