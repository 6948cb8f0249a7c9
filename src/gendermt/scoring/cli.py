"""``gendermt score mt``: any system's outputs against references, without the workflow.

Prints one object per metric, keyed by its lower-case name: ``{"score", "signature",
"clean_share", "low_quality"}`` (with ``--json``; the last two: the outputs' share that is
neither the source untranslated nor in another language, and whether it is below the
scorecard's floor, which also prints a warning on stderr), and writes per-segment scores
with ``--segments FILE`` (TSV, or JSON lines when the name ends in ``.jsonl``). COMET and
BERTScore need their own environment (``make comet-env``).
"""

from __future__ import annotations

import argparse
import math
import sys

from gendermt.core.errors import GenderMTError
from gendermt.data import textfiles
from gendermt.data.json_output import print_json
from gendermt.scoring.metrics import CPU_METRICS, NEURAL_METRICS


def register(score_commands: argparse._SubParsersAction, metrics_type) -> None:
    mt = score_commands.add_parser(
        "mt", help="score any outputs against references (BLEU, chrF, TER, COMET...)",
        description="Score system outputs against references, one segment per line in each "
                    "file. Metrics: " + ", ".join([*CPU_METRICS, *NEURAL_METRICS]) + ".")
    mt.add_argument("--src", help="source segments, one per line (COMET needs them)")
    mt.add_argument("--hyp", required=True, help="system outputs, one per line")
    mt.add_argument("--ref", required=True, help="references, one per line")
    mt.add_argument("--metrics", type=metrics_type, default=["bleu", "chrf", "ter"],
                    help="comma-separated (default: bleu,chrf,ter)")
    mt.add_argument("--tgt-lang", help="target language (ISO 639-1): picks BLEU's tokenizer "
                                       "(13a unless zh/ja/ko)")
    mt.add_argument("--tokenize", help="BLEU's sacrebleu tokenizer, overriding --tgt-lang")
    mt.add_argument("--segments", help="also write per-segment scores to this file "
                                       "(.tsv, or .jsonl)")
    mt.add_argument("--comet-model", default="Unbabel/wmt22-comet-da",
                    help="COMET model: Hub id (from the local cache) or checkpoint path")
    mt.add_argument("--bertscore-model", help="BERTScore model: Hub id or local folder")
    mt.add_argument("--bertscore-layers", type=int, help="BERTScore: the layer to use")
    mt.add_argument("--batch-size", type=int, default=16, help="neural metrics' batch size")
    mt.add_argument("--gpus", type=int, help="neural metrics' GPUs (default: 1 if CUDA is "
                                             "available, else 0)")
    mt.add_argument("--json", action="store_true", help="print JSON")
    mt.set_defaults(func=run)


def read_lines(path: str | None, what: str) -> list[str] | None:
    """A file's lines (``-``: stdin), split on ``\n`` only (:mod:`gendermt.data.textfiles`)."""
    return None if path is None else textfiles.read_lines(path, what)


def _gpus(requested: int | None) -> int:
    if requested is not None:
        return requested
    try:
        import torch
    except ImportError:
        return 0
    return 1 if torch.cuda.is_available() else 0


def score_segments(metrics: list[str], hyps: list[str], refs: list[str],
                   srcs: list[str] | None, args: argparse.Namespace,
                   per_segment: bool = True) -> tuple[dict[str, dict], dict[str, list[float]]]:
    """``({metric: {"score", "signature"}}, {metric: per-segment scores})``. Without
    ``per_segment`` (no ``--segments``), the CPU metrics' sentence scores, as costly as the
    corpus score, are not computed (the neural metrics' corpus score is their mean)."""
    from gendermt.scoring.metrics import corpus_score, sentence_scores
    from gendermt.scoring.sacrebleu_metrics import with_tokenizer

    result, segments = {}, {}
    for metric in metrics:
        if metric in CPU_METRICS:
            options = with_tokenizer(metric, {"tokenize": args.tokenize} if args.tokenize
                                     else None, args.tgt_lang)
            corpus = corpus_score(metric, hyps, refs, options)
            if per_segment:
                segments[metric], _ = sentence_scores(metric, hyps, refs, options)
            result[metric] = {"score": corpus.score, "signature": corpus.signature}
        elif metric == "comet":
            if srcs is None:
                raise GenderMTError("COMET needs the sources: give --src FILE")
            import pandas as pd

            from gendermt.scoring import comet

            model, version = comet.load_model(args.comet_model)
            frame = pd.DataFrame({"source": srcs, "hypothesis": hyps, "reference": refs})
            triples = comet.distinct_triples(frame)  # each distinct triple once
            triples = triples.assign(score=comet.score_triples(model, triples, args.batch_size,
                                                               _gpus(args.gpus)))
            scores = frame.merge(triples, on=comet.TRIPLE, how="left")["score"].tolist()
            segments[metric] = scores
            result[metric] = {"score": math.fsum(scores) / len(scores),
                              "signature": f"comet:{args.comet_model}|unbabel-comet:{version}|"
                                           "scale:x100|corpus:mean"}
        elif metric == "bertscore":
            from gendermt.scoring.bertscore import bertscore

            if args.bertscore_model is None:
                raise GenderMTError("BERTScore needs --bertscore-model (a Hub id in the local "
                                    "cache or a local model folder)")
            scores, signature = bertscore(hyps, refs, args.bertscore_model,
                                          num_layers=args.bertscore_layers,
                                          lang=args.tgt_lang, batch_size=args.batch_size,
                                          gpus=_gpus(args.gpus))
            segments[metric] = scores
            result[metric] = {"score": math.fsum(scores) / len(scores),
                              "signature": signature + "|corpus:mean"}
        else:
            raise GenderMTError(f"unknown metric {metric!r}; metrics: "
                                + ", ".join([*CPU_METRICS, *NEURAL_METRICS]))
    return result, segments


def write_segments(path: str, segments: dict[str, list[float]]) -> None:
    from gendermt.data.io import write_jsonl, write_text

    metrics = list(segments)
    n = len(next(iter(segments.values()))) if segments else 0
    rows = [{"segment": i + 1, **{m: segments[m][i] for m in metrics}} for i in range(n)]
    if path.endswith(".jsonl"):
        write_jsonl(path, rows)
    else:
        lines = ["\t".join(["segment", *metrics])]
        lines += ["\t".join(str(r[c]) for c in ["segment", *metrics]) for r in rows]
        write_text(path, "\n".join(lines) + "\n")


def check_options(args: argparse.Namespace) -> None:
    """Everything the options alone decide, before any file is read or score computed."""
    import importlib.util

    from gendermt.scoring.metrics import check_metrics

    check_metrics(args.metrics, [*CPU_METRICS, *NEURAL_METRICS])
    if args.tokenize is not None:
        from gendermt.config.checks import check_tokenizer

        check_tokenizer(args.tokenize, "--tokenize")
    if "comet" in args.metrics:
        if args.src is None:
            raise GenderMTError("COMET needs the sources: give --src FILE")
        if importlib.util.find_spec("comet") is None:
            raise GenderMTError("--metrics comet: COMET is not installed in this environment "
                                "(make comet-env, or pip install 'gendermt[comet]' in a venv "
                                "of its own)")
    if "bertscore" in args.metrics:
        if args.bertscore_model is None:
            raise GenderMTError("BERTScore needs --bertscore-model (a Hub id in the local "
                                "cache or a local model folder)")
        if importlib.util.find_spec("bert_score") is None:
            raise GenderMTError("--metrics bertscore: bert-score is not installed in this "
                                "environment (pip install 'gendermt[bertscore]')")


def run(args: argparse.Namespace) -> int:
    check_options(args)
    hyps, refs = read_lines(args.hyp, "--hyp"), read_lines(args.ref, "--ref")
    srcs = read_lines(args.src, "--src")
    for name, lines in (("--ref", refs), ("--src", srcs)):
        if lines is not None and len(lines) != len(hyps):
            raise GenderMTError(f"{args.hyp} (--hyp) has {len(hyps)} lines but "
                                f"{getattr(args, name[2:])} ({name}) has {len(lines)}")
    if not hyps:
        raise GenderMTError(f"{args.hyp} (--hyp) has no lines")
    result, segments = score_segments(args.metrics, hyps, refs, srcs, args,
                                      per_segment=bool(args.segments))
    if args.segments:
        write_segments(args.segments, segments)
    from gendermt.scoring.output_quality import output_quality, quality_warning

    # per metric (the JSON's keys are metrics): the outputs' share that is neither the
    # source untranslated (with --src) nor in another language than --tgt-lang (with it)
    quality = output_quality(hyps, args.tgt_lang, srcs)
    for info in result.values():
        info.update(clean_share=quality["clean_share"], low_quality=quality["low_quality"])
    line = quality_warning(quality)
    if line:
        print(line, file=sys.stderr)
    if args.json:
        print_json(result, getattr(args, "precision", None))
    else:
        for metric, info in result.items():
            print(f"{metric}\t{info['score']:.2f}\t{info['signature']}")
    return 0
