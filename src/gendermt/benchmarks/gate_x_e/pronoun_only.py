"""The pronoun-only rewriting pairs of GATE X-E (``pre_processed/*_src_neut.tsv``) and the
paper's Table 6 measured on them.

Each file has no header and three tab-separated columns: a constant ``Yes``, an English
sentence with gendered pronouns, and its all-neutral rewrite; ``fem`` and ``masc`` files hold
the same instances in the same order, ``mixed`` the 2-AGME ones. Neutral rewriting: every
sentence of the three files → its neutral column. Gendered rewriting: each feminine sentence
→ the masculine one of the same row and back (rows whose neutral columns differ are left
out, as they are not the same instance).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pandas as pd

from gendermt.benchmarks.gate_x_e import LANGUAGES
from gendermt.benchmarks.gate_x_e.data import read_rows
from gendermt.core.errors import DatasetError
from gendermt.scoring.sacrebleu_metrics import corpus_score
from gendermt.scoring.wer import corpus_wer

FILE_CODES = {"turkish": "TUR", "finnish": "FIN", "hungarian": "HUN", "farsi": "FARSI"}


def load_pairs(path: str | Path) -> pd.DataFrame:
    """``gendered`` and ``neutral`` columns of one pre-processed file."""
    path = Path(path)
    rows = read_rows(path)
    records = []
    for number, row in enumerate(rows, start=1):
        if not any(c.strip() for c in row):
            continue
        if len(row) != 3:
            raise DatasetError(path, f"{len(row)} fields; expected 3 (flag, gendered, neutral)",
                               row=number)
        records.append({"row": number, "flag": row[0].strip(), "gendered": row[1].strip(),
                        "neutral": row[2].strip()})
    return pd.DataFrame.from_records(records, columns=["row", "flag", "gendered", "neutral"])


def _scores(hyps: list[str], refs: list[str]) -> dict[str, float]:
    exact = sum(h.strip() == r.strip() for h, r in zip(hyps, refs, strict=True))
    return {"accuracy": 100.0 * exact / len(refs), "bleu": corpus_score("bleu", hyps, refs).score,
            "wer": corpus_wer(hyps, refs), "n": len(refs)}


def measure(root: str | Path, neutral: Callable[[str], str],
            gendered: Callable[[str, str, str], str],
            languages: tuple[str, ...] = tuple(FILE_CODES)) -> pd.DataFrame:
    """Table 6's layout for one rewriter: per language, accuracy (%), BLEU and WER (%) of
    the neutral rewrites and of the gendered ones. ``gendered(original, neutral, gender)``."""
    rows = []
    for language in languages:
        folder = Path(root) / language / "pre_processed"
        code = FILE_CODES[language]
        parts = {k: load_pairs(folder / f"{code}_test_{k}_src_neut.tsv")
                 for k in ("fem", "masc", "mixed")}
        everything = pd.concat(parts.values(), ignore_index=True)
        hyps = [neutral(t) for t in everything["gendered"]]
        row = {"language": LANGUAGES[language][0]}
        row.update({f"neutral_{k}": v for k, v in
                    _scores(hyps, everything["neutral"].tolist()).items()})
        fem, masc = parts["fem"], parts["masc"]
        same = fem["neutral"].to_numpy() == masc["neutral"].to_numpy()
        g_hyps, g_refs = [], []
        for f, m in zip(fem["gendered"][same], masc["gendered"][same], strict=True):
            g_hyps += [gendered(f, neutral(f), "masculine"), gendered(m, neutral(m), "feminine")]
            g_refs += [m, f]
        row.update({f"gendered_{k}": v for k, v in _scores(g_hyps, g_refs).items()})
        rows.append(row)
    return pd.DataFrame(rows)
