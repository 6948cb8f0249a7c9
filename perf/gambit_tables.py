"""Time of GAMBIT's analysis stage (all tables, then all figures) at the paper's scale.

Usage: python perf/gambit_tables.py [--models 6] [--texts 9805] [--occupations 436]
Synthetic assignments (80% masculine, 10% feminine, 10% Not Clear) for every model in fr and
el, a 3-digit labour file and 97 / 59 stereotype codes, as in the paper; prints seconds.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from gendermt.benchmarks.gambit.analyses import Run  # noqa: E402
from gendermt.benchmarks.gambit.figures import build_figures  # noqa: E402
from gendermt.benchmarks.gambit.tables import write_frames  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=6)
    parser.add_argument("--texts", type=int, default=9805)
    parser.add_argument("--occupations", type=int, default=436)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    codes = sorted({str(c) for c in rng.integers(1000, 9999, args.occupations * 2)}
                   )[:args.occupations]
    groups = sorted({c[:3] for c in codes})
    runs = [Run(f"M{m}", f"m{m}", lang, pd.DataFrame({
        "text_id": [f"gambit-{i:05d}" for i in range(args.texts)],
        "isco": rng.choice(codes, args.texts),
        "label": rng.choice(["Masculine", "Feminine", "Not Clear"], args.texts,
                            p=[0.8, 0.1, 0.1])}))
            for m in range(args.models) for lang in ("fr", "el")]
    labour = {lang: pd.DataFrame({"isco": groups, "female_share": rng.uniform(0, 1, len(groups))})
              for lang in ("fr", "el")}
    stereotype4 = pd.DataFrame({"code": codes[:97], "rating": rng.uniform(1, 7, 97),
                                "kept": True})
    stereotype3 = pd.DataFrame({"code": groups[:59], "rating": rng.uniform(1, 7, 59),
                                "kept": True})
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        files = write_frames(runs, {}, labour, stereotype4, stereotype3, {}, Path(tmp) / "t")
        tables = time.perf_counter() - start
        build_figures(Path(tmp) / "t", Path(tmp) / "f")
        figures = time.perf_counter() - start - tables
    print(f"{len(runs)} runs × {args.texts} assignments: {len(files)} table files in "
          f"{tables:.1f} s, figures in {figures:.1f} s")


if __name__ == "__main__":
    main()
