"""GATE's figure: overall F0.5 per language and direction of every system × prompt."""

from __future__ import annotations

from pathlib import Path

import pandas as pd


def build_figures(prf_csv: str | Path, png: str | Path, pdf: str | Path) -> None:
    """Workflow stage: ``tables/prf.csv`` → ``figures/f05.{png,pdf}`` (overall F0.5)."""
    import seaborn as sns

    from gendermt.plots import save

    table = pd.read_csv(prf_csv)
    overall = table[table["category"] == "overall"].copy()
    overall["run"] = overall["system"] + " · " + overall["prompt"]
    overall["direction"] = overall["gender"].map({"masculine": "f→m", "feminine": "m→f"})
    sns.set_theme(style="whitegrid", context="paper")
    grid = sns.catplot(data=overall, kind="bar", x="language", y="f05", hue="direction",
                       col="run", height=2.6, aspect=1.1, errorbar=None)
    grid.set_titles("{col_name}")
    grid.set_axis_labels("target language", "F0.5 (exact match)")
    for ax in grid.axes.flat:
        ax.set_ylim(0, 1)
    grid.figure.suptitle("GATE: F0.5 of gender rewrites", y=1.03)
    save(grid.figure, png, pdf)
