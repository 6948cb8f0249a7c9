"""Time of GAMBIT's analysis stage (all tables, then all figures) at the paper's scale, its
tables against a plain pandas summary of the same assignments.

Usage: python perf/gambit_tables.py [--models 6] [--texts 9805] [--occupations 436]
                                    [--repeats 3] [--small] [--record]
Synthetic assignments (80% masculine, 10% feminine, 10% Not Clear) for every model in fr and
el, a 3-digit labour file and 97 / 59 stereotype codes, as in the paper.
A (gendermt): ``gambit.tables.write_frames`` (every table of the paper, CSV and Markdown).
B (bare): the obvious plain alternative, the assignments concatenated, label shares per
model × language and per occupation group, joined to the labour file, written as CSV.
Alternating A and B in this process, CPU seconds; min, median, ratio. The figures are then
built once from A's tables (CPU seconds printed, no baseline). ``--small``: 2 models, 500
texts, one pair, no figures.
"""


from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import _ab  # noqa: E402 (perf/_ab.py: the A/B comparison)
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from gendermt.benchmarks.gambit.analyses import Run  # noqa: E402
from gendermt.benchmarks.gambit.figures import build_figures  # noqa: E402
from gendermt.benchmarks.gambit.tables import write_frames  # noqa: E402


def plain(runs: list, labour: dict, dest: Path) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    frame = pd.concat([r.assignments.assign(model=r.model, lang=r.lang) for r in runs],
                      ignore_index=True)
    shares = pd.crosstab([frame["model"], frame["lang"]], frame["label"], normalize="index")
    shares.to_csv(dest / "shares.csv")
    frame["group"] = frame["isco"].str[:3]
    by_group = (frame.assign(feminine=frame["label"] == "Feminine")
                .groupby(["lang", "group"])["feminine"].mean().reset_index())
    joined = pd.concat([by_group[by_group["lang"] == lang].merge(
        table, left_on="group", right_on="isco") for lang, table in labour.items()])
    joined.to_csv(dest / "labour.csv", index=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    _ab.add_arguments(parser)
    parser.add_argument("--models", type=int, default=6)
    parser.add_argument("--texts", type=int, default=9805)
    parser.add_argument("--occupations", type=int, default=436)
    args = parser.parse_args(argv)
    if args.small:
        args.models, args.texts, args.repeats = 2, 500, 1
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
        files: list = []

        def gendermt() -> None:
            files[:] = write_frames(runs, {}, labour, stereotype4, stereotype3, {},
                                    Path(tmp) / "t")

        _ab.compare(f"GAMBIT tables, {len(runs)} runs × {args.texts} assignments",
                    lambda: _ab.timed_call("gendermt", gendermt),
                    lambda: _ab.timed_call("bare", lambda: plain(runs, labour,
                                                                 Path(tmp) / "plain")),
                    args.repeats, note="B: pandas crosstab + groupby + merge, CSV")
        print(f"  {len(files)} table files")
        if not args.small:
            seconds = _ab.timed_call("gendermt", lambda: build_figures(Path(tmp) / "t",
                                                                        Path(tmp) / "f"))
            print(f"  figures from them: {seconds:.1f} s CPU (no baseline)")
    return _ab.finish("gambit_tables", args)


if __name__ == "__main__":
    sys.exit(main())
