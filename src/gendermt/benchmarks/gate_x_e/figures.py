"""GATE X-E figure: exact-match accuracy per original → requested gender, by subtype.

A cell with no tuple (Pronoun-Only has no Negative column) is not a bar of height 0: it is
marked "–"; a measured 0 is drawn as a bar outline on the axis. Each bar is labelled with its
n (the tuples, or for Negative → Gender the instances, it is computed over).

Above the grid, the headline figure (rewriting accuracy over Table 2's Overall rows) of each
run with its interval as an error bar, where the benchmark's ``tables/intervals.csv`` is
given; a run below its clean-share floor is grey, hatched and titled "(low quality)"; oracles
and baselines are labelled.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.patches import Patch

from gendermt.benchmarks.gate_x_e import SUBTYPES
from gendermt.benchmarks.gate_x_e.metric import COLUMNS
from gendermt.report import figure_marks as marks
from gendermt.report.plots import save
from gendermt.scorecard.build import benchmark_floors


def _panel(ax, part: pd.DataFrame, colors: dict, poor: bool = False) -> None:
    width = 0.8 / len(SUBTYPES)
    cells = {(r.original, r.requested, r.subtype): r for r in part.itertuples(index=False)}
    for i, (original, requested) in enumerate(COLUMNS):
        for k, subtype in enumerate(SUBTYPES):
            x = i - 0.4 + width * (k + 0.5)
            row = cells.get((original, requested, subtype))
            if row is None:  # no tuple of this kind: nothing measured
                ax.text(x, 0.01, "–", ha="center", va="bottom", fontsize=6, color="grey")
                continue
            value = float(row.accuracy)
            ax.bar(x, value, width, color=marks.LOW_COLOUR if poor else colors[subtype],
                   edgecolor=colors[subtype], hatch=marks.LOW_HATCH if poor else None)
            if value == 0:  # measured 0: an outline on the axis, not an empty slot
                ax.bar(x, 0.02, width, fill=False, edgecolor=colors[subtype], linewidth=1)
            ax.text(x, max(value, 0.02) + 0.01, str(int(row.n)), ha="center", va="bottom",
                    fontsize=5, rotation=90)
    ax.set_xticks(np.arange(len(COLUMNS)), [f"{o} → {r}" for o, r in COLUMNS], rotation=60,
                  ha="right", fontsize=7)
    ax.set_ylim(0, 1.18)
    ax.set_yticks([0, 0.25, 0.5, 0.75, 1.0])


def _overall(accuracy: pd.DataFrame) -> dict[tuple[str, str], float]:
    """Each run's rewriting accuracy over the Overall rows (the scorecard's, × 100), for a
    run the intervals table does not cover."""
    # as the scorecard's reader: the relaxed column re-counts the Negative instances
    rows = accuracy[(accuracy["subtype"] == "Overall")
                    & (accuracy["requested"] != "Neut (relaxed)")]
    sums = rows.groupby(["system", "prompt"])[["correct", "n"]].sum()
    return {(str(s), str(p)): 100 * r.correct / r.n for (s, p), r in sums.iterrows() if r.n}


def accuracy_figure(accuracy: pd.DataFrame, intervals: pd.DataFrame | None = None,
                    kinds: Mapping[str, str] | None = None,
                    low: set[tuple[str, str]] | None = None):
    """Bars: accuracy per Table 2 column, a panel per system · prompt (columns) and language
    (rows), coloured by subtype; n above each bar, "–" where a cell has no tuple. Above
    them, each run's headline accuracy with its interval (``intervals``); the runs in ``low``
    grey and hatched, oracles and baselines labelled."""
    low = low or set()
    sns.set_theme(style="whitegrid", context="paper")
    frame = accuracy.assign(run=accuracy["system"] + " · " + accuracy["prompt"])
    runs = list(dict.fromkeys(frame["run"]))
    pairs = list(dict.fromkeys(zip(frame["system"].astype(str), frame["prompt"].astype(str),
                                   strict=True)))
    languages = list(dict.fromkeys(frame["language"]))
    colors = dict(zip(SUBTYPES, sns.color_palette("Set2", len(SUBTYPES)), strict=True))
    fig = plt.figure(figsize=(max(4.4 * len(runs), 8), 2.8 * len(languages) + 0.5
                              + 0.35 * len(runs) + 0.8), layout="constrained")
    top, bottom = fig.subfigures(2, 1, height_ratios=[0.35 * len(runs) + 0.8,
                                                      2.8 * len(languages) + 0.5])
    marks.headline_panel(top.subplots(), pairs, intervals, "accuracy",
                         "rewriting accuracy (%), Overall rows", kinds, low,
                         _overall(accuracy))
    axes = bottom.subplots(len(languages), len(runs), squeeze=False, sharey=True)
    for r, language in enumerate(languages):
        for c, run in enumerate(runs):
            system, prompt = pairs[c]
            poor = (system, prompt) in low
            ax = axes[r][c]
            _panel(ax, frame[(frame["language"] == language) & (frame["run"] == run)], colors,
                   poor)
            ax.set_title(marks.title(f"{language} · {run}", system, kinds, poor), fontsize=8)
            if c == 0:
                ax.set_ylabel("exact-match accuracy")
    handles = [Patch(color=colors[s], label=s) for s in SUBTYPES]
    if low:
        handles.append(Patch(facecolor=marks.LOW_COLOUR, hatch=marks.LOW_HATCH,
                             edgecolor="0.4", label=marks.LOW_QUALITY))
    bottom.legend(handles=handles, loc="outside upper right", fontsize=7,
                  title="numbers: n; –: no tuple", title_fontsize=7)
    fig.suptitle("GATE X-E: accuracy of rewrites by original and requested gender")
    return fig


def build_figures(accuracy_csv: str | Path, png: str | Path, pdf: str | Path,
                  intervals_csv: str | Path | None = None, checks_csv: str | Path | None = None,
                  kinds: Mapping[str, str] | None = None,
                  quality_floors: Mapping[str, Any] | None = None) -> None:
    """Workflow stage: ``tables/accuracy.csv`` (and, where given, ``tables/intervals.csv``
    and ``tables/output_checks.csv``) → ``figures/accuracy.{png,pdf}``."""
    floor = benchmark_floors(quality_floors, "gate-x-e")["clean_share"]
    save(accuracy_figure(pd.read_csv(accuracy_csv), marks.read_intervals(intervals_csv), kinds,
                         marks.low_quality_runs(checks_csv, floor)), png, pdf)
