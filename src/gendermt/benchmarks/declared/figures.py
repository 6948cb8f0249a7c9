"""A declared benchmark's figure: gendered-word accuracy by target language, each gender's
and the pair accuracy, one panel per run (system × prompt)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from gendermt.report.plots import plt, save

# the first gender blue, the second red (as MT-GenEval's and FairTranslate's figures), pairs grey
COLOURS = ("#4393c3", "#d6604d", "#8C8C8C")


def _value(row: pd.DataFrame, column: str) -> float:
    value = row[column].iloc[0] if len(row) and column in row else None
    return np.nan if value is None or pd.isna(value) else 100 * float(value)


def accuracy_figure(table: pd.DataFrame, genders: Sequence[str], title: str,
                    png: str | Path, pdf: str | Path) -> None:
    """Bars per language: each gender's accuracy and the pair accuracy (%), with n under each
    group; a missing value says "n/a" instead of drawing 0."""
    runs = table[["system", "prompt"]].drop_duplicates().to_records(index=False).tolist()
    fig, axes = plt.subplots(len(runs) or 1, 1, figsize=(8, 2.6 * max(len(runs), 1)),
                             squeeze=False, sharex=True)
    langs = sorted(table["lang"].unique()) if not table.empty else []
    x = np.arange(len(langs))
    bars = [(f"accuracy_{g}", g) for g in genders] + [("accuracy", "pair (both genders)")]
    width = 0.8 / len(bars)
    for ax, (system, prompt) in zip(axes[:, 0], runs, strict=False):
        part = table[(table["system"] == system) & (table["prompt"] == prompt)]
        for k, ((column, label), colour) in enumerate(zip(bars, COLOURS, strict=True)):
            values = [_value(part[part["lang"] == lang], column) for lang in langs]
            pos = x + (k - (len(bars) - 1) / 2) * width
            ax.bar(pos, np.nan_to_num(values), width, color=colour, label=label)
            for p, v in zip(pos, values, strict=True):
                ax.text(p, 2 if np.isnan(v) else v + 1, "n/a" if np.isnan(v) else f"{v:.0f}",
                        ha="center", va="bottom", fontsize=7)
        for i, lang in enumerate(langs):
            n = part.loc[part["lang"] == lang, "n"]
            if len(n):
                ax.text(x[i], -9, f"n={int(n.iloc[0])}", ha="center", va="top", fontsize=6,
                        color="0.3")
        ax.set_ylim(-14, 110)
        ax.set_yticks([0, 25, 50, 75, 100])
        ax.set_ylabel("accuracy (%)")
        ax.set_title(f"{system} · {prompt}" if prompt else system, fontsize=9, loc="left")
    axes[-1, 0].set_xticks(x, langs)
    axes[0, 0].legend(fontsize=7, ncol=3, loc="upper right", bbox_to_anchor=(1, 1.35))
    fig.suptitle(f"{title}: gendered-word accuracy by target language", y=1.02)
    fig.tight_layout()
    save(fig, png, pdf)


def build_figures(accuracy_csv: str | Path, genders: Sequence[str], title: str,
                  png: str | Path, pdf: str | Path) -> None:
    """Workflow stage: ``tables/accuracy.csv`` → ``figures/accuracy.{png,pdf}``."""
    table = pd.read_csv(accuracy_csv, dtype={"system": str, "prompt": str},
                        keep_default_na=False, na_values=[""])
    accuracy_figure(table, genders, title, png, pdf)
