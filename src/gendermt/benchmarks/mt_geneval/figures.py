"""MT-GenEval's figure: accuracy by target language and gender, one panel per system."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from gendermt.plots import plt, save

# male / female as in FairTranslate's figures; contextual in grey
COLOURS = {"counterfactual masculine": "#4393c3", "counterfactual feminine": "#d6604d",
           "contextual": "#8C8C8C"}


def _rate(part: pd.DataFrame, lang: str, which: str, column: str) -> float:
    row = part[(part["lang"] == lang) & (part["set"] == which)]
    value = row[column].iloc[0] if len(row) else None
    return np.nan if value is None or pd.isna(value) else 100 * value


def accuracy_figure(table: pd.DataFrame, png: str | Path, pdf: str | Path) -> None:
    """Bars per language: counterfactual masculine and feminine accuracy and contextual
    accuracy, with n under each group; a cell with no value says "n/a" instead of drawing 0.
    A black tick on each bar: the share of outputs with a word of the right gender's
    reference (where the table has it)."""
    runs = table[["system", "prompt"]].drop_duplicates().to_records(index=False).tolist()
    fig, axes = plt.subplots(len(runs) or 1, 1, figsize=(8, 2.6 * max(len(runs), 1)),
                             squeeze=False, sharex=True)
    langs = sorted(table["lang"].unique()) if not table.empty else []
    x = np.arange(len(langs))
    width = 0.27
    for ax, (system, prompt) in zip(axes[:, 0], runs, strict=False):
        part = table[(table["system"] == system) & (table["prompt"] == prompt)]
        for k, (label, colour) in enumerate(COLOURS.items()):
            which, _, gender = label.partition(" ")
            column = f"accuracy_{gender}" if gender else "accuracy"
            values, ns = [], []
            for lang in langs:
                row = part[(part["lang"] == lang) & (part["set"] == which)]
                value = row[column].iloc[0] if len(row) else None
                values.append(np.nan if value is None or pd.isna(value) else 100 * value)
                ns.append(int(row["n"].iloc[0]) if len(row) else 0)
            pos = x + (k - 1) * width
            ax.bar(pos, np.nan_to_num(values), width, color=colour, label=label)
            # The official accuracy counts an output with no gendered word as correct (an
            # untranslated one scores 100): a black tick marks the share of outputs that
            # have a word of the right gender's reference, so such a bar does not look good.
            rate = f"correct_word_rate_{gender}" if gender else "correct_word_rate"
            if rate in part.columns:
                ticks = [_rate(part, lang, which, rate) for lang in langs]
                ax.scatter(pos, ticks, marker="_", s=120, color="black", zorder=3,
                           label="with a right-gender word" if k == 2 else None)
            for p, v, n in zip(pos, values, ns, strict=True):
                ax.text(p, 2 if np.isnan(v) else v + 1, "n/a" if np.isnan(v) else f"{v:.0f}",
                        ha="center", va="bottom", fontsize=7)
                if not np.isnan(v):
                    ax.text(p, -9, f"n={n}", ha="center", va="top", fontsize=6, color="0.3")
        ax.set_ylim(-14, 110)
        ax.set_yticks([0, 25, 50, 75, 100])
        ax.set_ylabel("accuracy (%)")
        ax.set_title(f"{system} · {prompt}" if prompt else system, fontsize=9, loc="left")
    axes[-1, 0].set_xticks(x, langs)
    axes[0, 0].legend(fontsize=7, ncol=3, loc="upper right", bbox_to_anchor=(1, 1.35))
    fig.suptitle("MT-GenEval: gender accuracy (official metric) by target language", y=1.02)
    fig.tight_layout()
    save(fig, png, pdf)


def build_figures(accuracy_csv: str | Path, png: str | Path, pdf: str | Path) -> None:
    """Workflow stage: ``tables/accuracy.csv`` → ``figures/accuracy.{png,pdf}``."""
    table = pd.read_csv(accuracy_csv, keep_default_na=True, dtype={"system": str, "prompt": str})
    accuracy_figure(table, png, pdf)
