"""The rule-based rewriter on GATE X-E's real pronoun-only pairs, in Table 6's layout,
beside the paper's rule-based baseline (Sun et al. 2021) and GPT-3.5 few-shot, with the
rewriting speed.

Usage: python perf/gate_x_e_rule_rewriter.py [--data ../shared/data/gate-x-e]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pandas as pd

from gendermt.benchmarks.gate_x_e.pronoun_only import measure
from gendermt.rewriting.english_pronouns import gendered_rewrite, neutral_rewrite

ROOT = Path(__file__).resolve().parents[1]
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(ROOT.parent / "shared" / "data" / "gate-x-e"))
    args = parser.parse_args()
    start = time.perf_counter()
    ours = measure(args.data, neutral_rewrite, gendered_rewrite)
    seconds = time.perf_counter() - start
    rows = [{"language": r.language, "method": "rule-rewriter (this project)",
             **{c: getattr(r, c) for c in COLUMNS}} for r in ours.itertuples(index=False)]
    rows += [{"language": lang, "method": method, **dict(zip(COLUMNS, values, strict=True))}
             for (lang, method), values in PAPER.items()]
    table = pd.DataFrame(rows).sort_values(["language", "method"], kind="stable")
    print(table.to_markdown(index=False, floatfmt=".2f", missingval="-"))
    sentences = int(ours["neutral_n"].sum() + ours["gendered_n"].sum())
    print(f"\n{sentences} rewrites in {seconds:.1f} s (BLEU/WER included), "
          f"{sentences / seconds:.0f} per second")


if __name__ == "__main__":
    main()
