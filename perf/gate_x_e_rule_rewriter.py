"""The project's rule-based rewriter on GATE X-E's real pronoun-only pairs (the pairs it was
developed on: not a held-out estimate) against a plain word-for-word lookup (issue 30), and
Table 6's quality beside the paper's rows (Sun et al. 2021's rule-based rewriter, GPT-3.5).

Usage: python perf/gate_x_e_rule_rewriter.py [--data ../shared/data/gate-x-e] [--repeats 3]
                                             [--small] [--record]
A (gendermt): ``neutral_rewrite`` of every sentence of the three pre-processed files and
``gendered_rewrite`` of each feminine/masculine pair (as ``measure`` does for Table 6).
B (bare): one regular expression over the pronouns, each replaced from a fixed table
(he/she → they, him → them, his/her → their, ...; for the gendered rewrites she ↔ he,
her → his, him → her, ...): no agreement of the verb, no her/his disambiguation, the floor
any rewriter pays. Alternating A and B in this process after a warm-up of each, CPU seconds
of the rewriting only (no BLEU/WER); min, median and ratio (perf/_ab.py). Then, outside the
timing, Table 6 for both (accuracy / BLEU / WER) beside the paper's rule-based baseline
(Sun et al. 2021) and GPT-3.5 few-shot: what A's extra time buys.
``--small``: Turkish only, the first 200 pairs of each file, one pair, no table. Exits
non-zero naming the data when it is absent (it is not shipped: ../shared/data/gate-x-e).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import _ab  # noqa: E402 (perf/_ab.py: the A/B comparison)

# GATE X-E Table 6: neutral accuracy / BLEU / WER, gendered accuracy / BLEU / WER.
PAPER = {
    ("tr", "Sun et al. 2021"): (96.16, 99.65, 0.53, None, None, None),
    ("tr", "GPT-3.5 few-shot"): (98.90, 99.55, 0.44, 99.46, 99.00, 0.10),
    ("hu", "Sun et al. 2021"): (96.14, 99.66, 0.53, None, None, None),
    ("hu", "GPT-3.5 few-shot"): (97.00, 99.03, 1.20, 99.20, 99.94, 0.09),
    ("fi", "Sun et al. 2021"): (95.24, 99.63, 0.62, None, None, None),
    ("fi", "GPT-3.5 few-shot"): (96.77, 98.62, 1.54, 98.99, 99.80, 0.19),
    ("fa", "Sun et al. 2021"): (94.43, 99.57, 0.65, None, None, None),
    ("fa", "GPT-3.5 few-shot"): (97.84, 99.16, 1.01, 99.00, 99.93, 0.09),
}
COLUMNS = ["neutral_accuracy", "neutral_bleu", "neutral_wer", "gendered_accuracy",
           "gendered_bleu", "gendered_wer"]

NEUTRAL = {"he": "they", "she": "they", "him": "them", "his": "their", "her": "their",
           "hers": "theirs", "himself": "themselves", "herself": "themselves"}
GENDERED = {"masculine": {"she": "he", "her": "his", "hers": "his", "herself": "himself"},
            "feminine": {"he": "she", "him": "her", "his": "her", "himself": "herself"}}
PRONOUN = re.compile(r"\b(he|she|him|his|her|hers|himself|herself)\b", re.I)


def _lookup(table: dict[str, str], match: re.Match) -> str:
    word = match.group(0)
    new = table.get(word.lower(), word)
    return new.capitalize() if word[0].isupper() else new


def plain_neutral(text: str) -> str:
    return PRONOUN.sub(lambda m: _lookup(NEUTRAL, m), text)


def plain_gendered(original: str, neutral: str, gender: str) -> str:
    return PRONOUN.sub(lambda m: _lookup(GENDERED[gender], m), original)


def workload(root: Path, languages: tuple[str, ...], limit: int
             ) -> tuple[list[str], list[tuple[str, str]]]:
    """Every sentence to rewrite neutrally, and the (feminine, masculine) pairs, as
    ``pronoun_only.measure`` reads them."""
    from gendermt.benchmarks.gate_x_e.pronoun_only import FILE_CODES, load_pairs

    sentences, pairs = [], []
    for language in languages:
        folder = root / language / "pre_processed"
        code = FILE_CODES[language]
        parts = {k: load_pairs(folder / f"{code}_test_{k}_src_neut.tsv").head(limit or None)
                 for k in ("fem", "masc", "mixed")}
        for frame in parts.values():
            sentences += list(frame["gendered"])
        fem, masc = parts["fem"], parts["masc"]
        same = fem["neutral"].to_numpy() == masc["neutral"].to_numpy()
        pairs += list(zip(fem["gendered"][same], masc["gendered"][same], strict=True))
    return sentences, pairs


def rewrite_all(sentences: list[str], pairs: list[tuple[str, str]], neutral, gendered) -> None:
    for text in sentences:
        neutral(text)
    for f, m in pairs:
        gendered(f, neutral(f), "masculine")
        gendered(m, neutral(m), "feminine")


def table(root: Path) -> None:
    import pandas as pd

    from gendermt.benchmarks.gate_x_e.pronoun_only import measure
    from gendermt.translation.rewriting.english_pronouns import gendered_rewrite, neutral_rewrite

    rows = []
    for method, neutral, gendered in (("rule-rewriter (this project)", neutral_rewrite,
                                       gendered_rewrite),
                                      ("plain lookup (B above)", plain_neutral, plain_gendered)):
        rows += [{"language": r.language, "method": method, **{c: getattr(r, c) for c in COLUMNS}}
                 for r in measure(root, neutral, gendered).itertuples(index=False)]
    rows += [{"language": lang, "method": method, **dict(zip(COLUMNS, values, strict=True))}
             for (lang, method), values in PAPER.items()]
    frame = pd.DataFrame(rows).sort_values(["language", "method"], kind="stable")
    print(frame.to_markdown(index=False, floatfmt=".2f", missingval="-"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    _ab.add_arguments(parser)
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data" / "gate-x-e")
    args = parser.parse_args(argv)
    from gendermt.benchmarks.gate_x_e.pronoun_only import FILE_CODES
    from gendermt.translation.rewriting.english_pronouns import gendered_rewrite, neutral_rewrite

    languages = ("turkish",) if args.small else tuple(FILE_CODES)
    missing = [lang for lang in languages if not (args.data / lang / "pre_processed").is_dir()]
    if missing:
        raise SystemExit(f"GATE X-E's pre-processed pairs are absent: {args.data}/{missing[0]}/"
                         "pre_processed (../shared/data/gate-x-e; docs/data-sources.md)")
    sentences, pairs = workload(args.data, languages, 200 if args.small else 0)
    n = len(sentences) + 2 * len(pairs)
    result = _ab.compare(
        f"GATE X-E pronoun rewriting, {n} rewrites ({', '.join(languages)})",
        lambda: _ab.timed_call("gendermt", lambda: rewrite_all(
            sentences, pairs, neutral_rewrite, gendered_rewrite)),
        lambda: _ab.timed_call("bare", lambda: rewrite_all(
            sentences, pairs, plain_neutral, plain_gendered)),
        1 if args.small else args.repeats, note="B: one regex and a pronoun table")
    print(f"rewrites per CPU second: gendermt {n / max(min(result.a), 1e-9):,.0f}, "
          f"bare {n / max(min(result.b), 1e-9):,.0f} (best pair)")
    if not args.small:
        print()
        table(args.data)
    return _ab.finish("gate_x_e_rule_rewriter", args)


if __name__ == "__main__":
    sys.exit(main())
