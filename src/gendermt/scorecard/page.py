"""The scorecard as an HTML table for the report: one column group per benchmark, the raw
values (with CIs) in the cells, each cell tinted by how good it is within its column (green:
the column's better end), columns whose values are all equal left untinted. Sortable."""

from __future__ import annotations

import math

import pandas as pd

from gendermt import htmltable
from gendermt.frontpage import TABLE_END, TABLE_START

from .build import Scorecard
from .figures import LABELS
from .heatmap import cell_matrix, goodness
from .write import floors_text, shown_cell

NOTE = ("Blank: the system did not run the benchmark; – : it ran, but the figure is undefined "
        "there. Tint: each column on its own scale, green = that column's better end (columns "
        "whose values are all equal are not tinted); compare systems within a column. "
        "(low quality): the system's output on that benchmark is below a quality floor "
        "({floors}); such a cell is never tinted and is left out of its column's scale, since "
        "figures of outputs that are not translations say nothing good or bad about a "
        "system. prompt: the run each system's figures of the benchmark come from. Click a "
        "header to sort.")


def _tint(score: float) -> str | None:
    """A light red → yellow → green background for a goodness score in [0, 1]."""
    if math.isnan(score):
        return None
    hue = 120 * score  # 0: red, 60: yellow, 120: green
    return f"background:hsl({hue:.0f},65%,82%)"


def header(bench: str, fig) -> str:
    """A column's header: its label, which names the language or paradigm where the
    benchmark has several (``ΔS (fr)``); the benchmark is the group header above it."""
    return "prompt" if fig is None else fig.label


def frame_and_styles(card: Scorecard) -> tuple[pd.DataFrame, list[list[str | None]]]:
    # labels repeat across benchmarks ("accuracy"): position, not name, identifies a column
    layout = card.layout()
    frame = pd.DataFrame([[s, *[shown_cell(card, s, b, f) for b, f in layout]]
                          for s in card.systems],
                         columns=["system", *[header(b, f) for b, f in layout]])
    # prompt cells are text: left-aligned like the system's name
    styles: list[list[str | None]] = [
        [None, *("text-align:left" if f is None else None for _, f in layout)]
        for _ in card.systems]
    figs = [f for _, f in layout if f is not None]
    # NaN where not run, undefined or below a quality floor: never tinted, out of the scale
    _, ranked, _ = cell_matrix(card, figs)
    j_of = [j for j, (_, f) in enumerate(layout, start=1) if f is not None]
    for k, fig in enumerate(figs):
        column = ranked[:, k]
        if len({v for v in column if not math.isnan(v)}) < 2:
            continue  # nothing to tell apart: no colour rather than a misleading mid-scale
        for i, score in enumerate(goodness(column, fig.better)):
            styles[i][j_of[k]] = _tint(float(score))
    return frame, styles


def groups_of(card: Scorecard) -> list[tuple[str, int]]:
    groups: list[tuple[str, int]] = [("", 1)]
    for bench, _ in card.layout():
        name = LABELS.get(bench, bench)
        if groups[-1][0] == name:
            groups[-1] = (name, groups[-1][1] + 1)
        else:
            groups.append((name, 1))
    return groups


def scorecard_table(card: Scorecard) -> str:
    frame, styles = frame_and_styles(card)
    table = htmltable.table(frame, groups=groups_of(card),
                            cell_style=lambda i, j: styles[i][j])
    # the unit and better direction of each column as its header's tooltip
    for fig in card.figures:
        table = table.replace(f"<th>{htmltable.html.escape(fig.label)}</th>",
                              f'<th title="{htmltable.html.escape(fig.unit)}; better: '
                              f'{htmltable.html.escape(fig.better)}">'
                              f"{htmltable.html.escape(fig.label)}</th>", 1)
    # After the table's own styles (which keep headers on one line) and more specific than
    # them, so that the scorecard's many headers wrap instead of being cut off.
    style = ("<style>.gmt-score .gmt-table td{white-space:nowrap;text-align:right}"
             ".gmt-score .gmt-table td:first-child{text-align:left}"
             ".gmt-score .gmt-table thead tr:last-child th{white-space:normal;"
             "max-width:9em;overflow:visible}</style>")
    note = NOTE.format(floors=floors_text(card) or "none")
    return (f'{TABLE_START}\n<div class="gmt-score">{table}</div>\n{style}\n'
            f'<p class="gmt-note">{htmltable.html.escape(note)}</p>\n{TABLE_END}')


def page(card: Scorecard) -> str:
    return htmltable.document("Scorecard: every benchmark's headline figures per system",
                              scorecard_table(card))
