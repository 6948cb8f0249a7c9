"""WinoMT scoring of one file, as a `winomt_gender` job does it, against spaCy alone (issue 30).

Usage: python perf/winomt_scoring.py [--lang fr] [--system google] [--repeats 3] [--small]
       [--data DIR] [--baseline-src DIR] [--record]

A (gendermt): a fresh process scores one system's file with the corrected reader as a job
does: tokenise and align both directions with the fast_align port (``evaluate.align_file``;
a job aligns all its files first), load spaCy's pipeline and the nouns' lemmatizer (once a
job), read each entity's gender from spaCy's parse (``evaluate.predict``).
B (bare): a fresh process that loads the same pipeline with its own lemmatizer, as
``spacy.load`` gives it, and parses the same sentences with ``nlp.pipe``, nothing else: the
floor a reader that takes spaCy's pipeline as it comes pays.
Both run with one BLAS/OpenMP thread, as Snakemake runs a one-thread job.
Alternating A and B, CPU seconds of each process and its peak RSS (ru_maxrss); prints min
and median of each and the ratios, and A's split: imports, spaCy's load, tokenising,
alignment, spaCy's parse plus the reading, with alignment's share of the file's own work
(everything after the load, which a job pays once for all its files) and of the whole process.
``--baseline-src DIR`` adds A against the same scoring from another checkout's ``src`` (an
older commit: before/after in one run). ``--small``: the first 300 sentences, one pair, no warm-up.
DIR defaults to ../shared/data/winomt (en.txt, en_pro.txt, en_anti.txt, translations/).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
import _ab  # noqa: E402 (perf/_ab.py: the A/B comparison)

CHILD = r"""
import json, resource, sys, time
from pathlib import Path
clock = time.process_time
t0 = clock()
mode, data_dir, lang, system = sys.argv[1], Path(sys.argv[2]), sys.argv[3], sys.argv[4]
limit = int(sys.argv[5])
from gendermt.benchmarks.winomt.data import load
from gendermt.benchmarks.winomt.evaluate import Models
data = load(data_dir / "en.txt", data_dir / "en_pro.txt", data_dir / "en_anti.txt")
hyps = [line.partition("|||")[2].strip() for line in (data_dir / "translations" / system /
        f"en-{lang}.txt").read_text(encoding="utf-8").splitlines()]
if limit:
    data, hyps = data.iloc[:limit].reset_index(drop=True), hyps[:limit]
out = {"imports_s": clock() - t0}
if mode == "bare":
    from gendermt.benchmarks.winomt.morphology import PIPE_BATCH
    from gendermt.benchmarks.winomt.spacy_models import SPACY_PIPELINES, import_spacy
    t = clock()
    nlp = import_spacy().load(SPACY_PIPELINES[lang], exclude=["parser", "ner"])
    out["spacy_load_s"] = clock() - t
    t = clock()
    for doc in nlp.pipe(hyps, batch_size=PIPE_BATCH):
        pass
    out["parse_s"] = clock() - t
else:
    import gendermt.benchmarks.winomt.evaluate as ev
    settings = {"aligner": "fast-align"}
    models = Models()
    if hasattr(ev, "align_file"):
        # as a job now: every file aligned, then spaCy loaded, then the readings
        t = clock()
        links = ev.align_file(data, hyps, "corrected", settings)
        out["align_s"] = clock() - t
        t = clock()
        models.pipeline(lang)
        out["spacy_load_s"] = clock() - t
        t = clock()
        table, facts = ev.predict(data, hyps, lang, settings, "corrected", models, links=links)
        out["file_s"] = out["align_s"] + clock() - t
    else:
        # an older checkout (before 2026-12-04's second round): a job's later files were
        # aligned with spaCy loaded
        t = clock()
        models.pipeline(lang)
        out["spacy_load_s"] = clock() - t
        spent = {"align": 0.0}
        inner = ev.align_pairs
        def timed_align(*a, **k):
            t = clock()
            try:
                return inner(*a, **k)
            finally:
                spent["align"] += clock() - t
        ev.align_pairs = timed_align
        t = clock()
        table, facts = ev.predict(data, hyps, lang, settings, "corrected", models)
        out["file_s"] = clock() - t
        out["align_s"] = spent["align"]
    out["acc"] = round(float(table["correct"].mean()) * 100, 2)
out["total_s"] = clock() - t0
out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
out["sentences"] = len(hyps)
print(json.dumps(out))
"""


def child(side: str, src: Path, mode: str, args) -> dict:
    env = {**os.environ, "PYTHONPATH": str(src), **_ab.JOB_THREADS}  # the winomt rules' one thread
    _, out = _ab.run_child(side, [sys.executable, "-c", CHILD, mode, str(args.data), args.lang,
                                  args.system, str(args.limit)], env=env)
    lines = [line for line in out.splitlines() if line.startswith("{")]
    if not lines:
        raise _ab.SideFailed(side, f"printed no result:\n{out[-2000:]}")
    return json.loads(lines[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    _ab.add_arguments(parser)
    parser.add_argument("--lang", default="fr")
    parser.add_argument("--system", default="google")
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared/data/winomt")
    parser.add_argument("--baseline-src", type=Path,
                        help="another checkout's src/ to score the same file (before/after)")
    args = parser.parse_args(argv)
    args.limit = 300 if args.small else 0
    repeats = 1 if args.small else args.repeats
    if not (args.data / "translations" / args.system / f"en-{args.lang}.txt").is_file():
        raise SystemExit(f"{args.data}/translations/{args.system}/en-{args.lang}.txt is absent")
    src = ROOT / "src"
    runs: dict[str, list[dict]] = {"A": [], "B": [], "before": []}

    def side(key: str, where: Path, mode: str):
        def run() -> float:
            result = child({"A": "gendermt", "B": "bare spaCy",
                            "before": "baseline src"}[key], where, mode, args)
            runs[key].append(result)
            return result["total_s"]
        return run

    label = f"WinoMT {args.system}/{args.lang}"
    _ab.compare(f"{label}, one file, process CPU", side("A", src, "score"),
                side("B", src, "bare"), repeats, warmup=not args.small,
                note="B: spaCy load + nlp.pipe only")
    skip = 0 if args.small else 1  # the warm-ups
    a, b = runs["A"][skip:], runs["B"][skip:]
    rss = _ab.Comparison(f"{label}, one file, peak RSS", [r["peak_rss_mb"] for r in a],
                         [r["peak_rss_mb"] for r in b], unit="MB")
    print(rss.line())
    _ab.COMPARISONS.append(rss)
    med = {k: statistics.median(r[k] for r in a)
           for k in ("imports_s", "spacy_load_s", "file_s", "align_s", "total_s")}
    share_file = med["align_s"] / med["file_s"]
    share_total = med["align_s"] / med["total_s"]
    print(f"{label}, gendermt split (median CPU s, {a[0]['sentences']} sentences): imports "
          f"{med['imports_s']:.2f}, spaCy load {med['spacy_load_s']:.2f}, file "
          f"{med['file_s']:.2f} (alignment {med['align_s']:.2f}, parse + reading "
          f"{med['file_s'] - med['align_s']:.2f}); alignment {100 * share_file:.0f} % of the "
          f"file's work, {100 * share_total:.0f} % of the process; accuracy {a[0]['acc']}")
    rss.extra = {"align_share_of_file": round(share_file, 3),
                 "align_share_of_process": round(share_total, 3)}
    if args.baseline_src:
        before = _ab.compare(f"{label}, one file, process CPU, this checkout vs "
                             f"{args.baseline_src}", side("A", src, "score"),
                             side("before", args.baseline_src, "score"), repeats)
        old = runs["before"][1:] or runs["before"]
        new = runs["A"][-len(before.a):]
        mem = _ab.Comparison(f"{label}, one file, peak RSS, this checkout vs "
                             f"{args.baseline_src}", [r["peak_rss_mb"] for r in new],
                             [r["peak_rss_mb"] for r in old], unit="MB")
        print(mem.line())
        _ab.COMPARISONS.append(mem)
        if {r["acc"] for r in new} != {r["acc"] for r in old}:
            raise SystemExit(f"accuracy differs: {new[0]['acc']} here, {old[0]['acc']} there")
    return _ab.finish("winomt_scoring", args)


if __name__ == "__main__":
    sys.exit(main())
