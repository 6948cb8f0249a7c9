"""A declared benchmark's part of the scorecard, read from ``<name>/tables/summary.csv``: per
target language the accuracy gap between the genders (the first's minus the second's) beside
the share of outputs with a right-gender word, and BLEU (or chrF) over all segments, the
quality floor below which the gaps mean little. The contract names ``read_<name>``: one reader
per declared benchmark (module ``__getattr__``)."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path

from gendermt.scorecard.figures import (
    Cell,
    Figure,
    Part,
    headline_rows,
    headline_runs,
    num,
    read_csv,
    run_label,
)


def _genders(columns: Sequence[str]) -> list[str]:
    """The genders, in the table's order (columns accuracy_<gender> between accuracy and
    accuracy_gap)."""
    cols = list(columns)
    start, end = cols.index("accuracy") + 1, cols.index("accuracy_gap")
    return [c.removeprefix("accuracy_") for c in cols[start:end]]


def read(name: str, results: Path, headline: Mapping[str, str] | None = None,
         order: Sequence[str] | None = None) -> Part:
    source = f"{name}/tables/summary.csv"
    table = read_csv(Path(results) / source, ["system", "prompt", "lang"])
    runs = headline_runs(table, headline, order, name)
    run = run_label(runs)
    table = headline_rows(table, runs)
    part = Part(systems=list(dict.fromkeys(table["system"].astype(str))))
    quality = next((m for m in ("bleu", "chrf", "comet") if m in table.columns), None)
    if quality:
        fig = Figure(name, f"{quality}_all", f"{quality.upper() if quality != 'chrf' else 'chrF'}"
                     " (all)", quality, "higher", run, source,
                     f"mean over target languages of column {quality} (every segment against "
                     "its own gender's reference)")
        part.figures.append(fig)
        for system, rows in table.groupby("system", sort=False):
            values = [v for v in map(num, rows[quality]) if not math.isnan(v)]
            part.cells[(str(system), fig.key)] = Cell(sum(values) / len(values) if values
                                                      else math.nan, prompt=runs[str(system)])
    quality_key = f"{quality}_all" if quality else None
    if "accuracy_gap" not in table.columns:
        return part
    first, second = _genders(table.columns)
    for lang, rows in table.groupby("lang", sort=False):
        figures = [
            (Figure(name, f"gap_{lang}", f"accuracy gap ({lang})",
                    f"accuracy points ({first} − {second})", "closer to 0", run, source,
                    f"100 × column accuracy_gap, lang {lang}", quality=quality_key),
             "accuracy_gap"),
            (Figure(name, f"correct_word_rate_{lang}", f"correct words ({lang})",
                    "% of outputs with a right-gender word", "higher", run, source,
                    f"100 × column correct_word_rate, lang {lang} (the accuracy counts an "
                    "output with no gendered word as correct)", quality=quality_key),
             "correct_word_rate"),
        ]
        for fig, column in figures:
            values = rows[column].map(num)
            if values.isna().all():
                continue
            part.figures.append(fig)
            for system, value in zip(rows["system"].astype(str), values, strict=True):
                part.cells[(system, fig.key)] = Cell(100 * value, prompt=runs[system])
    return part


def __getattr__(attr: str) -> Callable[..., Part]:
    if attr.startswith("read_") and len(attr) > len("read_"):
        return partial(read, attr[len("read_"):])
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")
