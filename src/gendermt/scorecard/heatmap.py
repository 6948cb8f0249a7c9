"""The scorecard as heatmaps, one panel per benchmark (its systems × its figures): each column
scaled to its own range and oriented so that green is the better end, with the raw values
printed in the cells; a column whose values are all equal is left uncoloured."""

from __future__ import annotations

import math
import textwrap
from pathlib import Path

import numpy as np

from .build import Scorecard
from .figures import LABELS, Figure

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
    return f"{textwrap.fill(fig.label, 16)}\n[{scale}]\n{fig.better}"


def _colours(raw: np.ndarray, figs: list[Figure]) -> np.ndarray:
    """Each column → [0, 1] (1: its better end); NaN where there is nothing to colour: no
    value, or a column whose values are all equal (not a mid-scale 'average')."""
    norm = np.column_stack([goodness(raw[:, j], f.better) for j, f in enumerate(figs)])
    for j in range(len(figs)):
        ok = raw[:, j][~np.isnan(raw[:, j])]
        if len(np.unique(ok)) < 2:
            norm[:, j] = np.nan
    return norm


def _panels(card: Scorecard) -> list[tuple[str, list[Figure], list[str]]]:
    """One panel per benchmark: its figures and the systems that ran it."""
    panels = []
    for bench in card.benchmarks:
        figs = [f for f in card.figures if f.benchmark == bench]
        systems = [s for s in card.systems if s in card.ran.get(bench, set())]
        if figs and systems:
            panels.append((LABELS.get(bench, bench), figs, systems))
    return panels


def cell_matrix(card: Scorecard, figs: list[Figure] | None = None,
                systems: list[str] | None = None
                ) -> tuple[np.ndarray, np.ndarray, list[list[str]]]:
    """Systems × figures (all of the card's by default): the raw values; the values that are
    coloured (NaN where not run, undefined, or below the quality floor); the cell texts."""
    figs = card.figures if figs is None else figs
    systems = card.systems if systems is None else systems
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
    return raw, np.where(floored, np.nan, raw), text


def _panel(ax, card: Scorecard, name: str, figs: list[Figure], systems: list[str]) -> None:
    _, ranked, text = cell_matrix(card, figs, systems)
    norm = _colours(ranked, figs)
    ax.imshow(np.ma.masked_invalid(norm), cmap=_CMAP(), vmin=0, vmax=1, aspect="auto")
    for i in range(len(systems)):
        for j in range(len(figs)):
            dark = not np.isnan(norm[i, j]) and (norm[i, j] < 0.15 or norm[i, j] > 0.85)
            ax.text(j, i, text[i][j], ha="center", va="center", fontsize=9,
                    color="white" if dark else "black")
    ax.set_xticks(range(len(figs)), [_scale_label(f, ranked[:, j]) for j, f in enumerate(figs)],
                  fontsize=8)
    ax.xaxis.tick_top()
    ax.set_yticks(range(len(systems)), systems, fontsize=9)
    ax.set_xticks(np.arange(-0.5, len(figs)), minor=True)
    ax.set_yticks(np.arange(-0.5, len(systems)), minor=True)
    ax.grid(which="minor", color="white", linewidth=1.5)
    ax.tick_params(which="minor", length=0)
    ax.set_title(name, fontsize=11, fontweight="bold", loc="left", pad=6)


def _CMAP():
    import matplotlib.pyplot as plt

    cmap = plt.get_cmap("RdYlGn").copy()
    cmap.set_bad("#eeeeee")
    return cmap


def draw(card: Scorecard, png: str | Path, pdf: str | Path) -> None:
    """One panel per benchmark (the systems that ran it × its figures), two panels a row, so
    that cell values and labels are legible at screen size."""
    import matplotlib.pyplot as plt

    from gendermt.plots import save

    panels = _panels(card)
    if not panels:
        fig, ax = plt.subplots(figsize=(6, 2))
        ax.axis("off")
        ax.text(0.5, 0.5, "no benchmark results", ha="center", va="center")
        save(fig, png, pdf)
        return
    from .write import floors_text

    floors = floors_text(card)
    cols = 1 if len(panels) == 1 else 2
    rows = math.ceil(len(panels) / cols)
    heights = [max(len(p[2]) for p in panels[r * cols:(r + 1) * cols]) + 3.2
               for r in range(rows)]
    widths = [max(len(p[1]) for p in panels[c::cols]) + 1.0 for c in range(cols)]
    fig, axes = plt.subplots(rows, cols, squeeze=False,
                             figsize=(min(5.4 * cols, 1.15 * sum(widths) + 3.5 * cols),
                                      0.36 * sum(heights) + 0.8),
                             gridspec_kw={"height_ratios": heights, "width_ratios": widths})
    for ax, (name, figs, systems) in zip(axes.flat, panels, strict=False):
        _panel(ax, card, name, figs, systems)
    for ax in list(axes.flat)[len(panels):]:
        ax.axis("off")
    fig.suptitle("Scorecard, one panel per benchmark: each column on its own scale, green = "
                 "its better end\n(grey: undefined, or a column whose values are all equal; "
                 "the systems that did not run a benchmark are left out of its panel;\n"
                 "low q.: output quality below its benchmark's floor, not coloured)\n"
                 + textwrap.fill(f"floors: {floors}", 150),
                 fontsize=9, y=1.0)
    fig.tight_layout(h_pad=1.2, w_pad=2.0)
    save(fig, png, pdf)
