"""GATE X-E figure: exact-match accuracy per original → requested gender, by subtype."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import seaborn as sns

from gendermt.plots import save

from . import SUBTYPES


def accuracy_figure(accuracy: pd.DataFrame):
    """Bars: accuracy per Table 2 column, a panel per system (columns) and language (rows),
    coloured by subtype."""
    sns.set_theme(style="whitegrid", context="paper")
    frame = accuracy.assign(cell=accuracy["original"] + " → " + accuracy["requested"])
    frame["run"] = frame["system"] + " · " + frame["prompt"]
    grid = sns.catplot(data=frame, kind="bar", x="cell", y="accuracy", hue="subtype",
                       hue_order=SUBTYPES, col="run", row="language", height=2.6, aspect=1.6,
                       sharey=True, legend_out=True, errorbar=None)
    grid.set_titles("{row_name} · {col_name}")
    grid.set_axis_labels("", "exact-match accuracy")
    for ax in grid.axes.flat:
        ax.set_ylim(0, 1)
        ax.tick_params(axis="x", rotation=60)
    grid.figure.suptitle("GATE X-E: accuracy of rewrites by original and requested gender",
                         y=1.02)
    return grid.figure


def build_figures(accuracy_csv: str | Path, png: str | Path, pdf: str | Path) -> None:
    """Workflow stage: ``tables/accuracy.csv`` → ``figures/accuracy.{png,pdf}``."""
    save(accuracy_figure(pd.read_csv(accuracy_csv)), png, pdf)
