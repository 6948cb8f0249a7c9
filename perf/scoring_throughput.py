"""Scoring throughput on 10,000 segments against the libraries called directly, and the COMET
calls de-duplication saves.

Usage: python perf/scoring_throughput.py [--segments 10000] [--config config/config.yaml]
                                         [--results DIR] [--repeats 3] [--small] [--record]

1. Throughput: real French sentence pairs (GATE's feminine vs masculine variants, from
   ../shared/data; the shipped FairTranslate sample where that is absent), cycled to N segments,
   scored at corpus and sentence level by each CPU metric. A (gendermt): ``metrics.corpus_score``
   and ``metrics.sentence_scores``, as the workflow's score job calls them; B (bare): the
   library called directly on the same segments (sacrebleu's ``BLEU``/``CHRF``/``TER``
   objects, ``corpus_score`` and a ``sentence_score`` loop; NLTK's ``sentence_bleu`` with
   smoothing method 4 for ``bleu_nltk_m4``, skipped where NLTK is absent). Alternating A and
   B in this process after a warm-up of each, CPU seconds; min, median and ratio
   (perf/_ab.py); then segments/s of each side.
2. De-duplication: for each FairTranslate config given, the (source, hypothesis, reference)
   triples of every system × prompt, and how many of them COMET scores (distinct triples) out
   of how many items. Hypotheses come from the translation files under --results when they
   exist; otherwise from running the offline backends (reference oracles, copy of the source)
   directly; a config whose systems need models and has no translations is reported as such.
   Counts, not timings: no B.
``--small``: 300 segments, one pair, no de-duplication part.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import pandas as pd
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import _ab  # noqa: E402 (perf/_ab.py: the A/B comparison)

from gendermt.benchmarks.fairtranslate.data import load  # noqa: E402
from gendermt.data.io import read_jsonl  # noqa: E402
from gendermt.scoring import metrics  # noqa: E402
from gendermt.scoring.comet import distinct_triples  # noqa: E402
from gendermt.translation.backends import build_backend  # noqa: E402
from gendermt.translation.backends.base import Request  # noqa: E402
from gendermt.translation.postprocess import pipeline  # noqa: E402

OFFLINE = {"reference-oracle", "copy-source"}


def segments(n: int) -> tuple[list[str], list[str], str]:
    gate = ROOT.parent / "shared" / "data" / "gate" / "FR" / "FR_2_variants.tsv"
    if gate.is_file():
        frame = pd.read_csv(gate, sep="\t", quoting=3, dtype=str, keep_default_na=False)
        hyps, refs, origin = list(frame["f"]), list(frame["m"]), str(gate)
    else:
        data, _ = load(ROOT / "resources/fairtranslate/data/train-00000-of-00001.parquet")
        hyps, refs, origin = list(data["ref_male"]), list(data["reference"]), "shipped sample"
    reps = -(-n // len(hyps))
    return (hyps * reps)[:n], (refs * reps)[:n], origin


def bare_scorer(metric: str):
    """(corpus, sentences) of the library itself for ``metric``, or None where it is absent."""
    if metric == "bleu_nltk_m4":
        try:
            from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu
        except ImportError:
            return None
        smooth = SmoothingFunction().method4

        def sentences(hyps: list[str], refs: list[str]) -> list[float]:
            return [100 * sentence_bleu([r.split()], h.split(), smoothing_function=smooth)
                    for h, r in zip(hyps, refs, strict=True)]

        def corpus(hyps: list[str], refs: list[str]) -> float:  # the authors' mean
            scores = sentences(hyps, refs)
            return sum(scores) / len(scores)

        return corpus, sentences
    from sacrebleu.metrics import BLEU, CHRF, TER

    make = {"bleu": lambda sentence: BLEU(tokenize="13a", effective_order=sentence),
            "chrf": lambda sentence: CHRF(), "ter": lambda sentence: TER()}[metric]
    corpus_scorer, sentence_scorer = make(False), make(True)
    return (lambda hyps, refs: corpus_scorer.corpus_score(hyps, [refs]).score,
            lambda hyps, refs: [sentence_scorer.sentence_score(h, [r]).score
                                for h, r in zip(hyps, refs, strict=True)])


def throughput(n: int, repeats: int) -> None:
    hyps, refs, origin = segments(n)
    words = sum(len(h.split()) for h in hyps) / len(hyps)
    print(f"## Throughput: {n} segments of real French ({origin}; {words:.1f} words/segment)\n")
    for metric in metrics.CPU_METRICS:
        bare = bare_scorer(metric)
        if bare is None:
            print(f"{metric}: skipped, the library it reproduces is not installed here")
            continue
        options = {"tokenize": "13a"} if metric == "bleu" else None

        def gendermt(metric: str = metric, options: dict | None = options) -> None:
            metrics.corpus_score(metric, hyps, refs, options)
            metrics.sentence_scores(metric, hyps, refs, options)

        def plain(bare: tuple = bare) -> None:
            bare[0](hyps, refs)
            bare[1](hyps, refs)

        result = _ab.compare(f"{metric}, corpus + sentence scores, {n} segments",
                             lambda: _ab.timed_call("gendermt", gendermt),
                             lambda: _ab.timed_call("bare", plain), repeats,
                             note="B: " + ("nltk sentence_bleu, method 4" if
                                           metric == "bleu_nltk_m4" else "sacrebleu directly"))
        a, b = statistics.median(result.a), statistics.median(result.b)
        print(f"  segments/s (CPU, corpus + sentence): gendermt {n / a:,.0f}, bare {n / b:,.0f}")
    print()


def hypotheses(config: dict, data: pd.DataFrame, results: Path, system: str,
               prompt: str) -> list[str] | None:
    path = results / "fairtranslate" / "translations" / system / f"{prompt}.jsonl"
    if path.is_file():
        found = {r["item_id"]: r["hypothesis"] for r in read_jsonl(path)}
        return [found.get(i) for i in data["item_id"]]
    settings = config["systems"][system]
    if settings["backend"] not in OFFLINE:
        return None
    backend = build_backend(settings, data)
    extract = pipeline(config["benchmarks"]["fairtranslate"].get("postprocess", []))
    requests = [Request(r.item_id, r.source, [], r.src_lang, r.tgt_lang)
                for r in data.itertuples()]
    return [extract(raw) for raw in backend.translate(requests)]


def dedup(config_path: Path, results: Path) -> None:
    config = yaml.safe_load(config_path.read_text(encoding="utf-8"))
    spec = config["benchmarks"].get("fairtranslate")
    print(f"## COMET de-duplication: {config_path.relative_to(ROOT)}\n")
    if spec is None:
        print("no FairTranslate benchmark in this config\n")
        return
    source = spec["data"].get("path")
    data, _ = load(ROOT / source if source and not Path(source).is_absolute() else source)
    parts, missing = [], []
    for system in spec["systems"]:
        for prompt in spec["prompts"]:
            hyps = hypotheses(config, data, results, system, prompt)
            if hyps is None:
                missing.append(f"{system}/{prompt}")
                continue
            parts.append(data[["source", "reference"]].assign(hypothesis=hyps))
    if missing:
        print(f"{len(missing)} runs have no translations under {results} and need a model "
              f"(e.g. {missing[0]}): run the workflow up to `translate` first.\n")
        if not parts:
            return
    frame = pd.concat(parts, ignore_index=True)
    triples = len(distinct_triples(frame))
    runs = len(parts)
    print(f"- runs (system × prompt): {runs}; items per run: {len(data)}")
    print(f"- COMET calls without de-duplication: {len(frame)}")
    print(f"- distinct (source, hypothesis, reference) triples scored: {triples}")
    print(f"- calls saved: {len(frame) - triples} ({100 * (1 - triples / len(frame)):.1f}%); "
          f"model loads: 1 instead of {runs}\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    _ab.add_arguments(parser)
    parser.add_argument("--segments", type=int, default=10_000)
    parser.add_argument("--config", action="append", type=Path,
                        help="FairTranslate configs (default: config/config.yaml and "
                             "config/study/fairtranslate.yaml where it exists)")
    parser.add_argument("--results", type=Path, default=ROOT / "results" / "default")
    args = parser.parse_args(argv)
    throughput(300 if args.small else args.segments, 1 if args.small else args.repeats)
    if args.small:
        return _ab.finish("scoring_throughput", args)
    configs = args.config or [p for p in (ROOT / "config/config.yaml",
                                          ROOT / "config/study/fairtranslate.yaml")
                              if p.is_file()]
    for config in configs:
        dedup(config.resolve(), args.results)
    return _ab.finish("scoring_throughput", args)


if __name__ == "__main__":
    sys.exit(main())
