"""MT-GenEval's part of the scorecard, read from ``mt-geneval/tables/summary.csv``: per target
language the counterfactual accuracy gap (masculine − feminine) beside the official
counterfactual accuracy (the authors' headline: a pair counts only when both its masculine
and its feminine translations are correct), the contextual accuracy, each beside its
correct-word rate, and BLEU over all segments, the quality floor below which
the gaps mean little. An output with no gendered word counts as correct in the official
accuracy (an untranslated or echoed one scores 1.0); the correct-word rate (share of outputs
with a word of the right gender's reference) tells those apart."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path

from gendermt.scorecard.figures import (
    Cell,
    Figure,
    Part,
    headline_rows,
    headline_runs,
    read_csv,
    run_label,
)

SOURCE = "mt-geneval/tables/summary.csv"
KEY = "mt-geneval"


def _num(value) -> float:
    try:
        value = float(value)
    except (TypeError, ValueError):
        return math.nan
    return value


def read(results: Path, headline: Mapping[str, str] | None = None,
         order: Sequence[str] | None = None) -> Part:
    table = read_csv(Path(results) / SOURCE, ["system", "prompt", "lang", "accuracy_gap",
                                              "contextual_accuracy"])
    runs = headline_runs(table, headline, order, KEY)
    run = run_label(runs)
    table = headline_rows(table, runs)
    part = Part(systems=list(dict.fromkeys(table["system"].astype(str))))
    quality = "bleu_all" if "bleu" in table.columns else None
    if quality:
        fig = Figure(KEY, "bleu_all", "BLEU (all)", "BLEU", "higher", run, SOURCE,
                     "mean over target languages of column bleu (corpus BLEU of every "
                     "segment against the right-gender reference)")
        part.figures.append(fig)
        for system, rows in table.groupby("system", sort=False):
            values = [v for v in map(_num, rows["bleu"]) if not math.isnan(v)]
            part.cells[(str(system), fig.key)] = Cell(sum(values) / len(values) if values
                                                      else math.nan, prompt=runs[str(system)])
    for lang, rows in table.groupby("lang", sort=False):
        figures = [
            (Figure(KEY, f"gap_{lang}", f"counterfactual gap ({lang})",
                    "accuracy points (masculine − feminine)", "closer to 0", run, SOURCE,
                    f"100 × column accuracy_gap, lang {lang}", quality=quality),
             "accuracy_gap"),
            (Figure(KEY, f"counterfactual_accuracy_{lang}",
                    f"counterfactual accuracy ({lang})",
                    "% of counterfactual pairs with both genders correct", "higher", run,
                    SOURCE, f"100 × column counterfactual_accuracy, lang {lang} (MT-GenEval's "
                    "official accuracy: a pair is correct only when both its translations "
                    "are)", quality=quality), "counterfactual_accuracy"),
            (Figure(KEY, f"correct_word_rate_{lang}", f"counterfactual correct words ({lang})",
                    "% of counterfactual outputs with a right-gender word", "higher", run,
                    SOURCE, f"100 × column correct_word_rate, lang {lang} (the official "
                    "accuracy counts an output with no gendered word as correct)",
                    quality=quality), "correct_word_rate"),
            (Figure(KEY, f"contextual_{lang}", f"contextual accuracy ({lang})", "%",
                    "higher", run, SOURCE, f"100 × column contextual_accuracy, lang {lang}",
                    quality=quality), "contextual_accuracy"),
            (Figure(KEY, f"contextual_correct_word_rate_{lang}",
                    f"contextual correct words ({lang})",
                    "% of contextual outputs with a right-gender word", "higher", run, SOURCE,
                    f"100 × column contextual_correct_word_rate, lang {lang}",
                    quality=quality), "contextual_correct_word_rate"),
        ]
        for fig, column in figures:
            if column not in rows.columns:
                continue  # a summary written before the column existed
            values = rows[column].map(_num)
            if values.isna().all():
                continue  # the set was not configured
            part.figures.append(fig)
            for system, value in zip(rows["system"].astype(str), values, strict=True):
                part.cells[(system, fig.key)] = Cell(100 * value, prompt=runs[system])
    return part
