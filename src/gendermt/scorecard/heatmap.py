"""The scorecard as a systems × figures heatmap: each column scaled to its own range and
oriented so that green is the better end, with the raw values printed in the cells."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from .build import Scorecard
from .figures import Figure

TARGETS = {"closer to 0": 0.0, "closer to 50": 50.0}


def goodness(values: np.ndarray, better: str) -> np.ndarray:
    """Column values → [0, 1], 1 at the column's best value; NaN stays NaN. A column whose
    values are all equal maps to 0.5 (nothing to tell apart)."""
    x = np.asarray(values, dtype=float)
    if better in TARGETS:
        x = -np.abs(x - TARGETS[better])
    elif better == "lower":
        x = -x
    elif better != "higher":
        return np.full(x.shape, np.nan)
    ok = ~np.isnan(x)
    if not ok.any():
        return np.full(x.shape, np.nan)
    low, high = np.nanmin(x), np.nanmax(x)
    if high == low:
        return np.where(ok, 0.5, np.nan)
    return (x - low) / (high - low)


def _scale_label(fig: Figure, values: np.ndarray) -> str:
    ok = values[~np.isnan(values)]
    scale = (f"{ok.min():.3g} … {ok.max():.3g}" if len(ok) else "no values")
    return f"{fig.column}\n[{scale}] {fig.better}"


def cell_matrix(card: Scorecard) -> tuple[np.ndarray, np.ndarray, list[list[str]]]:
    """Systems × figures: the raw values; the values that are coloured (NaN where not run,
    undefined, or below the quality floor); the cell texts."""
    figs, systems = card.figures, card.systems
    raw = np.full((len(systems), len(figs)), np.nan)
    text = [["" for _ in figs] for _ in systems]
    floored = np.zeros((len(systems), len(figs)), dtype=bool)
    for j, fig in enumerate(figs):
        for i, system in enumerate(systems):
            cell = card.cell(system, fig)
            if cell is not None:
                raw[i, j] = cell.value
                text[i][j] = "–" if math.isnan(cell.value) else f"{cell.value:.3g}"
                if card.below_floor(system, fig) and not math.isnan(cell.value):
                    floored[i, j] = True
                    text[i][j] += "\n(low q.)"
    # A value below the quality floor is printed but neither coloured nor part of its
    # column's range: a broken system's near-0 gap is not "best in column".
    ranked = np.where(floored, np.nan, raw)
    return raw, ranked, text


def draw(card: Scorecard, png: str | Path, pdf: str | Path) -> None:
    import matplotlib.pyplot as plt

    from gendermt.plots import save

    figs, systems = card.figures, card.systems
    raw, ranked, text = cell_matrix(card)
    norm = np.column_stack([goodness(ranked[:, j], f.better) for j, f in enumerate(figs)]) \
        if figs else raw
    width = max(6.0, 0.9 * len(figs) + 2.5)
    height = max(2.5, 0.45 * len(systems) + 2.8)
    fig, ax = plt.subplots(figsize=(width, height))
    cmap = plt.get_cmap("RdYlGn").copy()
    cmap.set_bad("#e6e6e6")
    image = ax.imshow(np.ma.masked_invalid(norm), cmap=cmap, vmin=0, vmax=1, aspect="auto")
    for i in range(len(systems)):
        for j in range(len(figs)):
            ax.text(j, i, text[i][j], ha="center", va="center", fontsize=7)
    ax.set_xticks(range(len(figs)), [_scale_label(f, ranked[:, j])
                                     for j, f in enumerate(figs)],
                  rotation=60, ha="right", fontsize=7)
    ax.set_yticks(range(len(systems)), systems, fontsize=8)
    floors = ", ".join(f"{k} < {v:g}" for k, v in card.floors.items())
    ax.set_title("Scorecard: each column scaled to its own range [min … max], "
                 "green = better end\n(grey: not run, – undefined, or low q.: output "
                 f"quality below the floor ({floors}), not coloured)",
                 fontsize=9)
    bar = fig.colorbar(image, ax=ax, fraction=0.03, pad=0.02)
    bar.set_ticks([0, 1], labels=["worst in column", "best in column"])
    bar.ax.tick_params(labelsize=7)
    save(fig, png, pdf)
