"""The scorecard as an HTML table for the report: one column group per benchmark, the raw
values (with CIs) in the cells, each cell tinted by how good it is within its column (green:
the column's better end), columns whose values are all equal left untinted. Sortable."""

from __future__ import annotations

import math

import pandas as pd

from gendermt import htmltable
from gendermt.frontpage import TABLE_END, TABLE_START

from .build import Scorecard
from .figures import BENCHMARKS
from .heatmap import goodness
from .write import fmt_cell

NOTE = ("Blank: the system did not run the benchmark; – : it ran, but the figure is undefined "
        "there. Tint: each column on its own scale, green = that column's better end (columns "
        "whose values are all equal are not tinted); compare systems within a column. Click a "
        "header to sort.")


def _tint(score: float) -> str | None:
    """A light red → yellow → green background for a goodness score in [0, 1]."""
    if math.isnan(score):
        return None
    hue = 120 * score  # 0: red, 60: yellow, 120: green
    return f"background:hsl({hue:.0f},65%,82%)"


def frame_and_styles(card: Scorecard) -> tuple[pd.DataFrame, list[list[str | None]]]:
    # labels repeat across benchmarks ("accuracy"): position, not name, identifies a column
    frame = pd.DataFrame([[s, *[fmt_cell(card, s, f) for f in card.figures]]
                          for s in card.systems],
                         columns=["system", *[f.label for f in card.figures]])
    styles: list[list[str | None]] = [[None] * (len(card.figures) + 1) for _ in card.systems]
    for j, fig in enumerate(card.figures, start=1):
        column = [math.nan if (c := card.cell(s, fig)) is None else c.value
                  for s in card.systems]
        if len({v for v in column if not math.isnan(v)}) < 2:
            continue  # nothing to tell apart: no colour rather than a misleading mid-scale
        for i, score in enumerate(goodness(column, fig.better)):
            styles[i][j] = _tint(float(score))
    return frame, styles


def groups_of(card: Scorecard) -> list[tuple[str, int]]:
    groups: list[tuple[str, int]] = [("", 1)]
    for fig in card.figures:
        name = BENCHMARKS.get(fig.benchmark, fig.benchmark)
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
    style = ("<style>.gmt-score td{white-space:nowrap;text-align:right}"
             ".gmt-score td:first-child{text-align:left}"
             ".gmt-score thead th{white-space:normal;max-width:9em}</style>")
    return (f'{TABLE_START}\n{style}<div class="gmt-score">{table}</div>\n'
            f'<p class="gmt-note">{NOTE}</p>\n{TABLE_END}')


def page(card: Scorecard) -> str:
    return htmltable.document("Scorecard: every benchmark's headline figures per system",
                              scorecard_table(card))
