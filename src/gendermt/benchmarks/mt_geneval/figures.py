"""MT-GenEval's figure: accuracy by target language and gender, one panel per system.

The contextual accuracy (a headline figure) carries its interval as an error bar and each
language's counterfactual gap its interval under the axis, where the benchmark's
``tables/intervals.csv`` is given; a run below its quality floor (``copy-source``: untranslated
English has no gendered word, so the official metric scores it near 100) is grey, hatched and
titled "(low quality)"; oracles and baselines are labelled."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from gendermt.report import figure_marks as marks
from gendermt.report.plots import plt, save
from gendermt.scorecard.build import benchmark_floors

# male / female as in FairTranslate's figures; contextual in grey
COLOURS = {"counterfactual masculine": "#4393c3", "counterfactual feminine": "#d6604d",
           "contextual": "#8C8C8C"}


def _rate(part: pd.DataFrame, lang: str, which: str, column: str) -> float:
    row = part[(part["lang"] == lang) & (part["set"] == which)]
    value = row[column].iloc[0] if len(row) else None
    return np.nan if value is None or pd.isna(value) else 100 * value


def _bars(ax, part: pd.DataFrame, langs: list[str], run: tuple[str, str],
          intervals: pd.DataFrame | None, poor: bool) -> None:
    """One run's panel: per language its three bars (contextual with its interval), the
    right-gender-word ticks, values and n."""
    x = np.arange(len(langs))
    width = 0.27
    for k, (label, colour) in enumerate(COLOURS.items()):
        which, _, gender = label.partition(" ")
        column = f"accuracy_{gender}" if gender else "accuracy"
        values = [_rate(part, lang, which, column) for lang in langs]
        ns = []
        for lang in langs:
            row = part[(part["lang"] == lang) & (part["set"] == which)]
            ns.append(int(row["n"].iloc[0]) if len(row) else 0)
        pos = x + (k - 1) * width
        bounds = [marks.interval(intervals, f"contextual_{lang}", *run)
                  if which == "contextual" else None for lang in langs]
        yerr = marks.error_bars(values, bounds) if any(bounds) else None
        ax.bar(pos, np.nan_to_num(values), width, color=marks.LOW_COLOUR if poor else colour,
               hatch=marks.LOW_HATCH if poor else None, edgecolor="white" if poor else None,
               label=label, yerr=yerr, capsize=2, error_kw={"linewidth": 0.8})
        # The official accuracy counts an output with no gendered word as correct (an
        # untranslated one scores 100): a black tick marks the share of outputs that
        # have a word of the right gender's reference, so such a bar does not look good.
        rate = f"correct_word_rate_{gender}" if gender else "correct_word_rate"
        if rate in part.columns:
            ticks = [_rate(part, lang, which, rate) for lang in langs]
            ax.scatter(pos, ticks, marker="_", s=120, color="black", zorder=3,
                       label="with a right-gender word" if k == 2 else None)
        above = yerr[1] if yerr else [0.0] * len(values)
        for p, v, n, up in zip(pos, values, ns, above, strict=True):
            ax.text(p, 2 if np.isnan(v) else v + up + 1, "n/a" if np.isnan(v) else f"{v:.0f}",
                    ha="center", va="bottom", fontsize=7)
            if not np.isnan(v):
                ax.text(p, -9, f"n={n}", ha="center", va="top", fontsize=6, color="0.3")
    gaps = [marks.interval(intervals, f"gap_{lang}", *run) for lang in langs]
    ax.set_ylim(-24 if any(gaps) else -14, 110)
    for p, bound in zip(x, gaps, strict=True):  # the counterfactual gap's interval
        if bound is not None:
            ax.text(p, -16, f"gap [{bound[0]:.1f}, {bound[1]:.1f}]", ha="center",
                    va="top", fontsize=6.5, color="0.2")


def accuracy_figure(table: pd.DataFrame, png: str | Path, pdf: str | Path,
                    intervals: pd.DataFrame | None = None,
                    kinds: Mapping[str, str] | None = None,
                    low: set[tuple[str, str]] | None = None) -> None:
    """Bars per language: counterfactual masculine and feminine accuracy and contextual
    accuracy, with n under each group; a cell with no value says "n/a" instead of drawing 0.
    A black tick on each bar: the share of outputs with a word of the right gender's
    reference (where the table has it). ``intervals``: the benchmark's intervals table
    (error bars on the contextual accuracy, the gap's interval under each language);
    ``kinds``: system → model/baseline/oracle; ``low``: the runs (system, prompt) below their
    quality floor, drawn grey and hatched."""
    low = low or set()
    runs = table[["system", "prompt"]].drop_duplicates().to_records(index=False).tolist()
    fig, axes = plt.subplots(len(runs) or 1, 1, figsize=(8, 2.6 * max(len(runs), 1)),
                             squeeze=False, sharex=True)
    langs = sorted(table["lang"].unique()) if not table.empty else []
    for ax, (system, prompt) in zip(axes[:, 0], runs, strict=False):
        poor = (str(system), str(prompt)) in low
        _bars(ax, table[(table["system"] == system) & (table["prompt"] == prompt)], langs,
              (system, prompt), intervals, poor)
        ax.set_yticks([0, 25, 50, 75, 100])
        ax.set_ylabel("accuracy (%)")
        ax.set_title(marks.title(f"{system} · {prompt}" if prompt else str(system), system,
                                 kinds, poor), fontsize=9, loc="left",
                     color="0.35" if poor else "black")
    axes[-1, 0].set_xticks(np.arange(len(langs)), langs)
    axes[0, 0].legend(fontsize=7, ncol=3, loc="upper right", bbox_to_anchor=(1, 1.35))
    notes = []
    if intervals is not None:
        notes.append(f"error bars: {_level(intervals)} interval of the contextual accuracy; "
                     "gap [low, high]: of the counterfactual gap (masculine − feminine, points)")
    if low:
        notes.append("grey, hatched (low quality): outputs below the clean-share floor "
                     "(untranslated or wrong-language), scored near 100 by the metric")
    fig.suptitle("MT-GenEval: gender accuracy (official metric) by target language"
                 + "".join(f"\n{n}" for n in notes), y=1.0 + 0.012 * len(notes), fontsize=10)
    fig.tight_layout()
    save(fig, png, pdf)


def _level(intervals: pd.DataFrame) -> str:
    """The intervals' level as text (``95 %``), from the table's ``level`` column."""
    if "level" in intervals.columns and intervals["level"].notna().any():
        return f"{100 * float(intervals['level'].dropna().iloc[0]):g} %"
    return "confidence"


def build_figures(accuracy_csv: str | Path, png: str | Path, pdf: str | Path,
                  intervals_csv: str | Path | None = None, checks_csv: str | Path | None = None,
                  kinds: Mapping[str, str] | None = None,
                  quality_floors: Mapping[str, Any] | None = None) -> None:
    """Workflow stage: ``tables/accuracy.csv`` (and, where given, ``tables/intervals.csv``
    and ``tables/output_checks.csv``) → ``figures/accuracy.{png,pdf}``."""
    table = pd.read_csv(accuracy_csv, keep_default_na=True, dtype={"system": str, "prompt": str})
    floor = benchmark_floors(quality_floors, "mt-geneval")["clean_share"]
    accuracy_figure(table, png, pdf, marks.read_intervals(intervals_csv), kinds,
                    marks.low_quality_runs(checks_csv, floor))
