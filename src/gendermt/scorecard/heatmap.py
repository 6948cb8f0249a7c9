"""The scorecard as a grid of panels, one per benchmark (its systems × its figures), the values
and intervals printed in the cells. No colour ramp: a column is not stretched from its worst to
its best value. Green with ◆: the figure's lead group (the leader and every system a paired
test cannot separate from it); hatched grey: below the benchmark's quality floor; oracles
(reference points) in a band of their own below a rule, never coloured."""

from __future__ import annotations

import math
import textwrap
from pathlib import Path

import numpy as np

from gendermt.scorecard.build import Scorecard
from gendermt.scorecard.figures import LABELS, Figure
from gendermt.scorecard.write import LEAD, display_systems, system_label

#: A cell's shade, by its state (gendermt.scorecard.page.state): only the lead group is
#: coloured; a value's place in its column's range never is.
SHADES = {None: "#ffffff", "lead": "#bfe3bf", "low": "#e6e6e6", "oracle": "#eef0f4"}


def _panels(card: Scorecard) -> list[tuple[str, list[Figure], list[str]]]:
    """One panel per benchmark: its figures and the systems that ran it."""
    panels = []
    for bench in card.benchmarks:
        figs = [f for f in card.figures if f.benchmark == bench]
        systems = [s for s in display_systems(card) if s in card.ran.get(bench, set())]
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
                if math.isnan(cell.value):
                    continue
                low = card.below_floor(system, fig)
                if cell.lead is True and not low and card.kind(system) != "oracle":
                    text[i][j] += f" {LEAD}"
                if not math.isnan(cell.ci_low) and not math.isnan(cell.ci_high):
                    text[i][j] += f"\n[{cell.ci_low:.3g}, {cell.ci_high:.3g}]"
                if low:
                    floored[i, j] = True
                    text[i][j] += "\n(low q.)"
    # A value below the quality floor is printed but neither coloured nor part of its
    # column's range: a broken system's near-0 gap is not "best in column".
    return raw, np.where(floored, np.nan, raw), text


def _scale_label(fig: Figure, card: Scorecard, systems: list[str]) -> str:
    from gendermt.scorecard.page import n_text

    n = n_text(card, fig, systems)
    return f"{textwrap.fill(fig.label, 16)}\n{fig.better}" + (f"\n{n}" if n else "")


def _panel(ax, card: Scorecard, name: str, figs: list[Figure], systems: list[str]) -> None:
    from matplotlib.colors import to_rgb
    from matplotlib.patches import Rectangle

    from gendermt.scorecard.page import state

    _, _, text = cell_matrix(card, figs, systems)
    states = [[state(card, s, f) for f in figs] for s in systems]
    rgb = np.array([[to_rgb(SHADES[k]) for k in row] for row in states])
    ax.imshow(rgb, aspect="auto")
    for i in range(len(systems)):
        for j in range(len(figs)):
            if states[i][j] == "low":  # hatched, so that it does not read as a shade
                ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, hatch="///",
                                       edgecolor="#b0b0b0", linewidth=0))
            ax.text(j, i, text[i][j], ha="center", va="center", fontsize=8,
                    fontweight="bold" if states[i][j] == "lead" else "normal",
                    color="#555555" if states[i][j] in ("low", "oracle") else "black")
    ax.set_xticks(range(len(figs)), [_scale_label(f, card, systems) for f in figs],
                  fontsize=8)
    ax.xaxis.tick_top()
    ax.set_yticks(range(len(systems)), [system_label(card, s) for s in systems], fontsize=9)
    ax.set_xticks(np.arange(-0.5, len(figs)), minor=True)
    ax.set_yticks(np.arange(-0.5, len(systems)), minor=True)
    ax.grid(which="minor", color="#d0d0d0", linewidth=1.0)
    ax.tick_params(which="minor", length=0)
    oracles = [i for i, s in enumerate(systems) if card.kind(s) == "oracle"]
    if oracles and len(oracles) < len(systems):  # the reference points' band
        ax.axhline(oracles[0] - 0.5, color="#444444", linewidth=2.5)
    ax.set_title(name, fontsize=11, fontweight="bold", loc="left", pad=6)


def draw(card: Scorecard, png: str | Path, pdf: str | Path) -> None:
    """One panel per benchmark (the systems that ran it × its figures), two panels a row, so
    that cell values and labels are legible at screen size."""
    import matplotlib.pyplot as plt

    from gendermt.report.plots import save

    panels = _panels(card)
    if not panels:
        fig, ax = plt.subplots(figsize=(6, 2))
        ax.axis("off")
        ax.text(0.5, 0.5, "no benchmark results", ha="center", va="center")
        save(fig, png, pdf)
        return
    from gendermt.scorecard.write import floors_text

    floors = floors_text(card)
    # two panels a row where every panel is narrow; else one a row, as wide as its columns
    # need (a value and its interval are two lines of about 1.3 inches)
    cols = 2 if len(panels) > 1 and max(len(p[1]) for p in panels) <= 6 else 1
    rows = math.ceil(len(panels) / cols)
    heights = [max(len(p[2]) for p in panels[r * cols:(r + 1) * cols]) + 3.2
               for r in range(rows)]
    widths = [max(len(p[1]) for p in panels[c::cols]) + 1.0 for c in range(cols)]
    fig, axes = plt.subplots(rows, cols, squeeze=False,
                             figsize=(max(1.35 * sum(widths) + 2.8 * cols, 9),
                                      0.55 * sum(heights) + 1.2),
                             gridspec_kw={"height_ratios": heights, "width_ratios": widths})
    for ax, (name, figs, systems) in zip(axes.flat, panels, strict=False):
        _panel(ax, card, name, figs, systems)
    for ax in list(axes.flat)[len(panels):]:
        ax.axis("off")
    fig.suptitle(f"Scorecard, one panel per benchmark: value [interval]; green, bold and "
                 f"{LEAD}: the lead group (the leader and every system a paired test on the "
                 "same items cannot separate from it)\nno other colour (values are not "
                 "shaded by their place in a column); below the rule: (oracle) reference "
                 "points, never marked; the systems that did not run a benchmark are left "
                 "out of its panel;\nhatched, low q.: output quality below its benchmark's "
                 "floor, never marked; "
                 + textwrap.fill(f"floors: {floors}", 150),
                 fontsize=9, y=1.0)
    fig.tight_layout(h_pad=1.2, w_pad=2.0)
    save(fig, png, pdf)
