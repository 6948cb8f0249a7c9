"""MT-GenEval's part of the scorecard, read from ``mt-geneval/tables/summary.csv``: per target
language the counterfactual accuracy gap (masculine − feminine) and the contextual accuracy,
and BLEU over all segments, the quality floor below which the gaps mean little (an output
with no gendered word counts as correct: an untranslated one scores 1.0)."""

from __future__ import annotations

import math
from pathlib import Path

from gendermt.scorecard.figures import Cell, Figure, Part, pick_run, read_csv

SOURCE = "mt-geneval/tables/summary.csv"
KEY = "mt-geneval"


def _num(value) -> float:
    try:
        value = float(value)
    except (TypeError, ValueError):
        return math.nan
    return value


def read(results: Path) -> Part:
    table = read_csv(Path(results) / SOURCE, ["system", "prompt", "lang", "accuracy_gap",
                                              "contextual_accuracy"])
    run = pick_run(table["prompt"])
    table = table[table["prompt"].astype(str) == run]
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
                                                      else math.nan)
    for lang, rows in table.groupby("lang", sort=False):
        gap = Figure(KEY, f"gap_{lang}", f"counterfactual gap ({lang})",
                     "accuracy points (masculine − feminine)", "closer to 0", run, SOURCE,
                     f"100 × column accuracy_gap, lang {lang}", quality=quality)
        ctx = Figure(KEY, f"contextual_{lang}", f"contextual accuracy ({lang})", "%",
                     "higher", run, SOURCE, f"100 × column contextual_accuracy, lang {lang}",
                     quality=quality)
        for fig, column in ((gap, "accuracy_gap"), (ctx, "contextual_accuracy")):
            values = rows[column].map(_num)
            if values.isna().all():
                continue  # the set was not configured
            part.figures.append(fig)
            for system, value in zip(rows["system"].astype(str), values, strict=True):
                part.cells[(system, fig.key)] = Cell(100 * value)
    return part
