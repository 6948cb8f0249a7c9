"""WinoMT figure: accuracy, ΔG and ΔS of every system, per target language."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import matplotlib.pyplot as plt
import seaborn as sns

from gendermt.plots import save

from .tables import collect

PANELS = (("acc", "accuracy (%)"), ("delta_g", "ΔG = F1 male − F1 female"),
          ("delta_s", "ΔS = acc pro − acc anti"))


def compare_systems(frame, systems: Sequence[str], langs: Sequence[str]):
    """Three panels (acc, ΔG, ΔS), bars per language (x) and system (hue)."""
    sns.set_theme(style="whitegrid", context="paper")
    panels = [(k, label) for k, label in PANELS if frame[k].notna().any()]
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 3.4), squeeze=False)
    for ax, (key, label) in zip(axes[0], panels, strict=True):
        sns.barplot(data=frame, x="lang", y=key, hue="system", order=list(langs),
                    hue_order=list(systems), ax=ax, errorbar=None)
        ax.set_xlabel("target language")
        ax.set_ylabel(label)
        ax.axhline(0, color="black", linewidth=0.6)
        if ax is not axes[0][-1]:
            ax.get_legend().remove()
    axes[0][-1].legend(title="system", bbox_to_anchor=(1.02, 1), loc="upper left")
    fig.suptitle("WinoMT: gender accuracy and bias per system and target language")
    fig.tight_layout()
    return fig


def build_figures(summaries: Sequence[str | Path], png: str | Path, pdf: str | Path,
                  systems: Sequence[str], langs: Sequence[str]) -> None:
    """Workflow stage: every summary → ``figures/systems.{png,pdf}``."""
    frame = collect(summaries, systems, langs)
    save(compare_systems(frame, systems, langs), png, pdf)
