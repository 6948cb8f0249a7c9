"""WinoMT scoring at study size, before and after issue 23, measured in one run.

before: one process per system × language file, as the workflow's jobs were: each loads
        spaCy again and aligns its file with eflomal (the corrected reader only);
after:  one process per language, as the `winomt_gender` job is now: spaCy loaded once,
        each file aligned by the deterministic fast_align model; the corrected reader only
        (the same work as before), then both readers (what the study config now runs).

Wall-clock and CPU seconds summed over the processes (as Snakemake's per-job benchmarks
sum), and their ratios. The machine is shared, so compare the ratios, not the seconds.

Usage: python perf/winomt_scoring.py [--systems google,bing,systran,aws]
       [--langs fr,es,it,de] [--data DIR]
DIR defaults to ../shared/data/winomt (en.txt, en_pro.txt, en_anti.txt, translations/).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# What one `winomt_gender` job does now, minus the file writing: every system of a language,
# every reader, with the models of one process.
AFTER = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from gendermt.benchmarks.winomt.data import load
from gendermt.benchmarks.winomt.evaluate import Models, predict
from gendermt.benchmarks.winomt.metric import compute
data_dir, lang = Path(sys.argv[2]), sys.argv[3]
systems, readers = sys.argv[4].split(","), sys.argv[5].split(",")
data = load(data_dir / "en.txt", data_dir / "en_pro.txt", data_dir / "en_anti.txt")
models, out = Models(), {}
for system in systems:
    lines = (data_dir / "translations" / system / f"en-{lang}.txt").read_text(
        encoding="utf-8").splitlines()
    hyps = [line.partition("|||")[2].strip() for line in lines]
    for reader in readers:
        table, _ = predict(data, hyps, lang, {"aligner": "fast-align"}, reader, models)
        out[f"{system}/{reader}"] = round(compute(table)["acc"], 1)
print(json.dumps(out))
"""


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(cmd: list[str]) -> tuple[float, float, str]:
    """Wall-clock and CPU seconds of one process, and what it printed."""
    start, cpu = time.perf_counter(), _children_cpu()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    seconds, cpu = time.perf_counter() - start, _children_cpu() - cpu
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd[:6])} ... failed:\n{proc.stderr[-2000:]}")
    return seconds, cpu, proc.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--systems", default="google,bing,systran,aws")
    parser.add_argument("--langs", default="fr,es,it,de")
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared/data/winomt")
    args = parser.parse_args()
    systems, langs = args.systems.split(","), args.langs.split(",")
    d = args.data

    before = [0.0, 0.0]
    for lang in langs:
        for system in systems:
            seconds, cpu, out = timed([
                sys.executable, "-m", "gendermt", "score", "winomt", "--data",
                str(d / "en.txt"), "--pro", str(d / "en_pro.txt"), "--anti",
                str(d / "en_anti.txt"), "--hyp", str(d / "translations" / system /
                                                     f"en-{lang}.txt"),
                "--lang", lang, "--aligner", "eflomal", "--json"])
            before[0] += seconds
            before[1] += cpu
            print(f"before  {system:>8} {lang}: {seconds:6.1f} s (CPU {cpu:5.1f} s)  "
                  f"(acc {json.loads(out)['acc']:.1f}, eflomal)", flush=True)
    after = {}
    for readers in ("corrected", "corrected,original"):
        after[readers] = [0.0, 0.0]
        for lang in langs:
            seconds, cpu, out = timed([sys.executable, "-c", AFTER, str(ROOT / "src"), str(d),
                                       lang, ",".join(systems), readers])
            after[readers][0] += seconds
            after[readers][1] += cpu
            print(f"after   {lang} ({len(systems)} systems, {readers}): {seconds:6.1f} s "
                  f"(CPU {cpu:5.1f} s)  "
                  f"{out.strip()}", flush=True)
    files = len(systems) * len(langs)
    one, both = after["corrected"], after["corrected,original"]
    print(f"\n{files} files, seconds summed over processes (wall | CPU):")
    print(f"before: a process per file, eflomal, corrected reader: "
          f"{before[0]:.1f} | {before[1]:.1f}")
    print(f"after:  a process per language, fast-align, corrected reader: "
          f"{one[0]:.1f} | {one[1]:.1f}  ({before[0] / one[0]:.1f}x | "
          f"{before[1] / one[1]:.1f}x faster)")
    print(f"after:  the same, both readers: {both[0]:.1f} | {both[1]:.1f}  "
          f"({before[0] / both[0]:.1f}x | {before[1] / both[1]:.1f}x faster than before "
          "with one reader)")

if __name__ == "__main__":
    main()
