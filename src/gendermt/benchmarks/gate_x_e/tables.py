"""GATE X-E's tables: accuracy (Table 2, with the relaxed negative-neutral column of §5.3),
rewriting quality of the pronoun-only tuples (Table 6) and tuple counts (Table 5).

Each table is a tidy CSV (full precision, every system and prompt) and a Markdown file in
the paper's layout.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from gendermt.benchmarks.gate_x_e.metric import (
    accuracy_long,
    accuracy_signature,
    rewriting_quality,
    table2,
)
from gendermt.benchmarks.gate_x_e.parse import ANSWER_STATUSES
from gendermt.data.io import write_table, write_text

#: The rewriting table's signature columns (in its CSV; its Markdown leaves them out).
SIGNATURES = ["accuracy_signature", "bleu_signature", "wer_signature"]
TABLE5_ROWS = [("Pronoun-Only", "feminine", "Pronoun-Only (f/m)"),
               ("Gendered-Noun", "feminine", "Gendered-Noun (f/m)"),
               ("Pronoun-Only", "mixed", "Pronoun-Only (mix)"),
               ("Gendered-Noun", "mixed", "Gendered-Noun (mix)"),
               ("Negative", "negative", "Negative")]


def tuple_counts(items: pd.DataFrame, tuples: pd.DataFrame) -> pd.DataFrame:
    """Table 5: requests per category and original gender (the paper's unit: f/m counts the
    feminine originals, which equal the masculine ones) per language, and the tuples made
    from them."""
    languages = list(dict.fromkeys(items["language"]))
    rows = []
    for category, original, label in TABLE5_ROWS:
        row = {"category": label}
        for lang in languages:
            sel = ((items["language"] == lang) & (items["category"] == category)
                   & (items["original_gender"] == original))
            row[lang] = int(sel.sum())
        rows.append(row)
    rows.append({"category": "Tuples (all)",
                 **{lang: int((tuples["language"] == lang).sum()) for lang in languages}})
    return pd.DataFrame(rows)


def _markdown(frame: pd.DataFrame, title: str) -> str:
    # tabulate's missingval applies to None only: an empty cell (NaN) must print "-" too
    shown = frame.astype(object).where(frame.notna(), None)
    return f"{title}\n\n{shown.to_markdown(index=False, floatfmt='.2f', missingval='-')}\n"


def build_tables(items_path: str | Path, tuples_path: str | Path,
                 runs: Sequence[Mapping[str, Any]], outputs: Mapping[str, str],
                 bleu_options: dict | None = None) -> None:
    """Workflow stage: every run's rewrites (``{system, prompt, path}`` records of
    ``rewrites/{system}/{prompt}.parquet``) → ``tables/{accuracy,rewriting,tuples}``."""
    items = pd.read_parquet(items_path)
    tuples = pd.read_parquet(tuples_path)
    long_parts, wide_parts, quality_parts = [], [], []
    for run in runs:
        system, prompt = run["system"], run["prompt"]
        # how the run's answers were read (the rewrites stage's option, its default there)
        answer = run.get("answer", "variants")
        scored = pd.read_parquet(run["path"])
        long = accuracy_long(scored)
        long_parts.append(long.assign(system=system, prompt=prompt,
                                      signature=accuracy_signature(answer)))
        wide_parts.append(table2(long).assign(system=system, prompt=prompt))
        quality_parts.append(rewriting_quality(scored, bleu_options, answer)
                             .assign(system=system, prompt=prompt))
    front = ["system", "prompt"]
    accuracy = pd.concat(long_parts, ignore_index=True)
    accuracy = accuracy[front + [c for c in accuracy.columns if c not in front]]
    write_table(accuracy, outputs["accuracy"])
    wide = pd.concat(wide_parts, ignore_index=True)
    wide = wide[front + [c for c in wide.columns if c not in front]]
    write_text(outputs["accuracy_md"], _markdown(
        wide, "Exact-match accuracy (GATE X-E Table 2; Negative → Neut (relaxed) is §5.3's "
              "relaxed score)"))
    quality = pd.concat(quality_parts, ignore_index=True)
    quality = quality[front + [c for c in quality.columns if c not in front]]
    write_table(quality, outputs["rewriting"], outputs["rewriting_md"],
                md_without=SIGNATURES)
    write_table(tuple_counts(items, tuples), outputs["tuples"], outputs["tuples_md"],
                floatfmt=".0f")
    if "answers" in outputs:
        table = answer_table(runs)
        write_table(table, outputs["answers"], outputs["answers_md"], floatfmt=".3f")


def answer_table(runs: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """Per run (system, prompt): requests, how many answers had each status
    (:data:`.parse.ANSWER_STATUSES`; ``from table`` for rewrites given as a table), and the
    share read in full (complete or none). An accuracy of 0 reads differently when no answer
    could be read at all."""
    rows = []
    for run in runs:
        system, prompt = run["system"], run["prompt"]
        scored = pd.read_parquet(run["path"]).drop_duplicates("item_id")
        status = scored["answer"] if "answer" in scored.columns else \
            pd.Series(["from table"] * len(scored))
        counts = status.value_counts()
        row = {"system": system, "prompt": prompt, "requests": len(scored)}
        row.update({s: int(counts.get(s, 0)) for s in (*ANSWER_STATUSES, "from table")})
        read = row["complete"] + row["none"] + row["from table"]
        row["read_share"] = read / len(scored) if len(scored) else float("nan")
        rows.append(row)
    return pd.DataFrame(rows)
