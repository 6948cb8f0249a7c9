"""WinoMT comparison figure, one per target language: for each configured pair (before →
after), the change of accuracy and of ΔG with its paired interval over sentences, both values
written beside it (drawn from ``tables/compare_{lang}.csv``, :mod:`.compare`)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

from gendermt.benchmarks.winomt.compare import FIGURES
from gendermt.report.plots import save


def change_figure(table: pd.DataFrame, lang: str):
    """One panel per figure (accuracy, ΔG): a row per pair, the change after − before as a
    point with its interval, 0 marked, and "before → after" values as text."""
    sns.set_theme(style="whitegrid", context="paper")
    labels = list(dict.fromkeys(table["label"]))
    fig, axes = plt.subplots(1, len(FIGURES), figsize=(4.6 * len(FIGURES),
                                                        1.2 + 0.55 * max(len(labels), 1)),
                             squeeze=False)
    y = np.arange(len(labels))[::-1]
    ns = sorted({int(n) for n in table["n"]})
    # the pairs' sentences differ only where a system was scored on fewer: then each says
    each_n = len(ns) > 1
    for ax, (key, name) in zip(axes[0], FIGURES, strict=True):
        rows = table[table["figure"] == key].set_index("label")
        for pos, label in zip(y, labels, strict=True):
            if label not in rows.index:
                continue
            row = rows.loc[label]
            change = float(row["change"])
            low, high = float(row["ci_low"]), float(row["ci_high"])
            err = (np.array([[change - low], [high - change]])
                   if not (np.isnan(low) or np.isnan(high)) else None)
            ax.errorbar(change, pos, xerr=err, fmt="o", color="C0", capsize=3,
                        linewidth=1)
            values = f"{float(row['before_value']):.1f} → {float(row['after_value']):.1f}"
            ax.annotate(values + (f" (n {int(row['n'])})" if each_n else ""),
                        (change, pos), textcoords="offset points", xytext=(0, 6),
                        ha="center", fontsize=7)
        ax.axvline(0, color="black", linewidth=0.6)
        ax.set_yticks(y, labels if ax is axes[0][0] else [""] * len(labels))
        ax.set_ylim(-0.7, len(labels) - 0.3)
        ax.margins(x=0.15)
        ax.set_xlabel(f"change of {name}, after − before")
        ax.set_title(name, fontsize=9)
    first = table.iloc[0] if len(table) else None
    sentences = f"n = {ns[0]} sentences" if len(ns) == 1 else "n per pair"
    note = (f"{sentences}, {float(first['level']):.0%} paired bootstrap "
            f"interval ({int(first['resamples'])} resamples, seed {int(first['seed'])}); "
            f"reader {first['reader']}" if first is not None else "no pair runs this language")
    fig.suptitle(f"WinoMT {lang}: change per system pair (before → after)\n{note}",
                 fontsize=10)
    fig.tight_layout()
    return fig


def build_compare_figures(tables: Mapping[str, str | Path],
                          outputs: Mapping[str, str | Path]) -> None:
    """Workflow stage: ``tables/compare_{lang}.csv`` per language (``tables``: lang → path)
    → ``figures/compare_{lang}.{png,pdf}`` (``outputs``: ``png_{lang}``, ``pdf_{lang}``)."""
    for lang, path in tables.items():
        table = pd.read_csv(path, dtype={"label": str, "before": str, "after": str})
        save(change_figure(table, lang), outputs[f"png_{lang}"], outputs[f"pdf_{lang}"])
