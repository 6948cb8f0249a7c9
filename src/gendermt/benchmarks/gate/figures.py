"""GATE's figure: overall F0.5 per language and direction of every system × prompt.

Above the panels, each run's headline figure (the scorecard's rewriting accuracy over the
overall rows) with its interval as an error bar, where the benchmark's ``tables/intervals.csv``
is given; a run below its clean-share floor is grey, hatched and titled "(low quality)";
oracles and baselines are labelled."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pandas as pd

DIRECTIONS = {"masculine": "f→m", "feminine": "m→f"}


def _accuracy(overall: pd.DataFrame) -> dict[tuple[str, str], float]:
    """Each run's rewriting accuracy over its overall rows (as the scorecard reads it: 100 ×
    Σ matches / Σ count), for a run the intervals table does not cover."""
    sums = overall.groupby(["system", "prompt"])[["matches", "count"]].sum()
    return {(str(s), str(p)): 100 * r.matches / r["count"] for (s, p), r in sums.iterrows()
            if r["count"]}


def f05_figure(table: pd.DataFrame, intervals: pd.DataFrame | None = None,
               kinds: Mapping[str, str] | None = None):
    """A panel per run (bars: F0.5 per language, a colour per direction) under the runs'
    headline accuracy with its interval; a run whose ``low_quality`` column is true grey
    and hatched."""
    import matplotlib.pyplot as plt
    import numpy as np
    import seaborn as sns
    from matplotlib.patches import Patch

    from gendermt.report import figure_marks as marks

    overall = table[table["category"] == "overall"].copy()
    overall["system"] = overall["system"].astype(str)
    overall["prompt"] = overall["prompt"].astype(str)
    runs = list(dict.fromkeys(zip(overall["system"], overall["prompt"], strict=True)))
    low = set()
    if "low_quality" in overall.columns:
        flags = overall["low_quality"].astype(str).str.lower() == "true"
        low = set(zip(overall.loc[flags, "system"], overall.loc[flags, "prompt"], strict=True))
    languages = list(dict.fromkeys(overall["language"]))
    colours = dict(zip(DIRECTIONS, sns.color_palette("deep", 2), strict=True))
    sns.set_theme(style="whitegrid", context="paper")
    cols = max(len(runs), 1)
    fig = plt.figure(figsize=(max(2.9 * cols, 7), 3.2 + 0.35 * cols + 0.8),
                     layout="constrained")
    top, bottom = fig.subfigures(2, 1, height_ratios=[0.35 * cols + 0.8, 3.2])
    marks.headline_panel(top.subplots(), runs, intervals, "accuracy",
                         "rewriting accuracy (%), overall rows", kinds, low,
                         _accuracy(overall))
    axes = bottom.subplots(1, cols, squeeze=False, sharey=True)[0]
    x = np.arange(len(languages))
    for ax, (system, prompt) in zip(axes, runs, strict=False):
        poor = (system, prompt) in low
        part = overall[(overall["system"] == system) & (overall["prompt"] == prompt)]
        for k, (gender, label) in enumerate(DIRECTIONS.items()):
            values = [part[(part["language"] == lang) & (part["gender"] == gender)]["f05"]
                      for lang in languages]
            heights = [float(v.iloc[0]) if len(v) else 0.0 for v in values]
            ax.bar(x + (k - 0.5) * 0.38, heights, 0.38, label=label,
                   color=marks.LOW_COLOUR if poor else colours[gender],
                   edgecolor=colours[gender], hatch=marks.LOW_HATCH if poor else None)
        ax.set_xticks(x, languages)
        ax.set_ylim(0, 1)
        ax.set_xlabel("target language")
        ax.set_title(marks.title(f"{system} · {prompt}", system, kinds, poor), fontsize=8)
    axes[0].set_ylabel("F0.5 (exact match)")
    handles = [Patch(color=colours[g], label=label) for g, label in DIRECTIONS.items()]
    if low:
        handles.append(Patch(facecolor=marks.LOW_COLOUR, hatch=marks.LOW_HATCH,
                             edgecolor="0.4", label=marks.LOW_QUALITY))
    bottom.legend(handles=handles, loc="outside right upper", fontsize=7, title="direction")
    fig.suptitle("GATE: F0.5 of gender rewrites")
    return fig


def build_figures(prf_csv: str | Path, png: str | Path, pdf: str | Path,
                  intervals_csv: str | Path | None = None,
                  kinds: Mapping[str, str] | None = None) -> None:
    """Workflow stage: ``tables/prf.csv`` (its ``low_quality`` column applies the configured
    clean-share floor) and, where given, ``tables/intervals.csv`` → ``figures/f05.{png,pdf}``
    (overall F0.5)."""
    from gendermt.report import figure_marks as marks
    from gendermt.report.plots import save

    save(f05_figure(pd.read_csv(prf_csv), marks.read_intervals(intervals_csv), kinds), png, pdf)
