"""GATE X-E figure: exact-match accuracy per original → requested gender, by subtype.

A cell with no tuple (Pronoun-Only has no Negative column) is not a bar of height 0: it is
marked "–"; a measured 0 is drawn as a bar outline on the axis. Each bar is labelled with its
n (the tuples, or for Negative → Gender the instances, it is computed over).
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.patches import Patch

from gendermt.plots import save

from . import SUBTYPES
from .metric import COLUMNS


def _panel(ax, part: pd.DataFrame, colors: dict) -> None:
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
            ax.bar(x, value, width, color=colors[subtype], edgecolor=colors[subtype])
            if value == 0:  # measured 0: an outline on the axis, not an empty slot
                ax.bar(x, 0.02, width, fill=False, edgecolor=colors[subtype], linewidth=1)
            ax.text(x, max(value, 0.02) + 0.01, str(int(row.n)), ha="center", va="bottom",
                    fontsize=5, rotation=90)
    ax.set_xticks(np.arange(len(COLUMNS)), [f"{o} → {r}" for o, r in COLUMNS], rotation=60,
                  ha="right", fontsize=7)
    ax.set_ylim(0, 1.18)
    ax.set_yticks([0, 0.25, 0.5, 0.75, 1.0])


def accuracy_figure(accuracy: pd.DataFrame):
    """Bars: accuracy per Table 2 column, a panel per system · prompt (columns) and language
    (rows), coloured by subtype; n above each bar, "–" where a cell has no tuple."""
    sns.set_theme(style="whitegrid", context="paper")
    frame = accuracy.assign(run=accuracy["system"] + " · " + accuracy["prompt"])
    runs = list(dict.fromkeys(frame["run"]))
    languages = list(dict.fromkeys(frame["language"]))
    colors = dict(zip(SUBTYPES, sns.color_palette("Set2", len(SUBTYPES)), strict=True))
    fig, axes = plt.subplots(len(languages), len(runs), squeeze=False, sharey=True,
                             figsize=(4.4 * len(runs), 2.8 * len(languages)),
                             layout="constrained")
    for r, language in enumerate(languages):
        for c, run in enumerate(runs):
            ax = axes[r][c]
            _panel(ax, frame[(frame["language"] == language) & (frame["run"] == run)], colors)
            ax.set_title(f"{language} · {run}", fontsize=8)
            if c == 0:
                ax.set_ylabel("exact-match accuracy")
    handles = [Patch(color=colors[s], label=s) for s in SUBTYPES]
    fig.legend(handles=handles, loc="outside upper right", fontsize=7,
               title="numbers: n; –: no tuple", title_fontsize=7)
    fig.suptitle("GATE X-E: accuracy of rewrites by original and requested gender")
    return fig


def build_figures(accuracy_csv: str | Path, png: str | Path, pdf: str | Path) -> None:
    """Workflow stage: ``tables/accuracy.csv`` → ``figures/accuracy.{png,pdf}``."""
    save(accuracy_figure(pd.read_csv(accuracy_csv)), png, pdf)
