"""Neo-GATE's Figures 1-3: heatmaps of each metric over prompt format × number of shots, one
panel per system (columns) and paradigm (rows)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from gendermt.benchmarks.neogate.tables import collect_runs
from gendermt.report.plots import save

TITLES = {"coverage": "Coverage (%)", "accuracy": "Accuracy (%)",
          "cwa": "Coverage-weighted accuracy (%)", "misgeneration": "Mis-generation (%)"}
# Darker is better for the first three and worse for mis-generation, as in the paper.
CMAPS = {"coverage": "Blues", "accuracy": "Blues", "cwa": "Blues", "misgeneration": "Reds"}


def heatmap(runs: pd.DataFrame, metric: str, systems: Sequence[str],
            paradigms: Sequence[str], formats: Sequence[str]):
    few = runs[runs["shots"] > 0]
    formats = [f for f in formats if f in set(few["format"])]
    shots = sorted(few["shots"].unique())
    fig, axes = plt.subplots(len(paradigms), len(systems), squeeze=False, layout="constrained",
                             figsize=(1.5 + (0.8 + 0.6 * max(len(shots), 1)) * len(systems),
                                      1.0 + (0.5 + 0.35 * max(len(formats), 1))
                                      * len(paradigms)))
    vmax = max(100.0, float(few[metric].max()) if not few.empty else 100.0)
    image = None
    for r, paradigm in enumerate(paradigms):
        for c, system in enumerate(systems):
            ax = axes[r][c]
            part = few[(few["paradigm"] == paradigm) & (few["system"] == system)]
            grid = np.full((len(formats), len(shots)), np.nan)
            for row in part.itertuples(index=False):
                grid[formats.index(row.format), shots.index(row.shots)] = getattr(row, metric)
            image = ax.imshow(grid, cmap=CMAPS[metric], vmin=0, vmax=vmax, aspect="auto")
            for (i, j), value in np.ndenumerate(grid):
                if not np.isnan(value):
                    ax.text(j, i, f"{value:.1f}", ha="center", va="center", fontsize=7,
                            color="white" if value > 0.6 * vmax else "black")
            ax.set_xticks(range(len(shots)), [str(s) for s in shots])
            ax.set_yticks(range(len(formats)),
                          [f.capitalize() for f in formats] if c == 0 else [])
            if part.empty:  # a paradigm's own system is not run on the other paradigms
                ax.text(0.5, 0.5, "not run", transform=ax.transAxes, ha="center",
                        va="center", fontsize=7, color="grey")
            ax.set_title(f"{system} · {paradigm}", fontsize=8)
            if r == len(paradigms) - 1:
                ax.set_xlabel("shots")
    if few.empty:
        fig.text(0.5, 0.5, "no few-shot run in this configuration", ha="center")
    elif image is not None:
        fig.colorbar(image, ax=axes.ravel().tolist(), shrink=0.8, label="%")
    fig.suptitle(f"Neo-GATE en→it, few-shot: {TITLES[metric]}")
    return fig


def build_figures(summary_files: Sequence[str | Path], outputs: dict, systems: Sequence[str],
                  paradigms: Sequence[str], formats: Sequence[str]) -> None:
    """Workflow stage: every run's summary → ``figures/<metric>.{png,pdf}``."""
    runs = collect_runs(summary_files)
    for metric in TITLES:
        fig = heatmap(runs, metric, systems, paradigms, formats)
        save(fig, outputs[f"{metric}_png"], outputs[f"{metric}_pdf"])
