"""GATE on the scorecard: its headline figures, read from its own tables."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path

from gendermt.scorecard.figures import (
    Cell,
    Figure,
    Part,
    headline_rows,
    headline_runs,
    read_csv,
    run_label,
)


def read(results: Path, headline: Mapping[str, str] | None = None,
         order: Sequence[str] | None = None) -> Part:
    """Exact-match rewriting accuracy (matches / rows) over the overall rows of prf.csv."""
    source = "gate/tables/prf.csv"
    table = read_csv(results / source, ["system", "prompt", "category", "count", "matches"])
    runs = headline_runs(table, headline, order, "gate")
    run = run_label(runs)
    rows = headline_rows(table, runs)
    rows = rows[rows["category"] == "overall"]
    fig = Figure("gate", "accuracy", "rewriting accuracy", "%", "higher", run, source,
                 "100 × Σ matches / Σ count over the overall rows of every language and "
                 "direction")
    part = Part([fig], list(dict.fromkeys(table["system"].astype(str))))
    for system, sub in rows.groupby("system", sort=False):
        n = sub["count"].sum()
        part.cells[(str(system), fig.key)] = Cell(100 * sub["matches"].sum() / n if n
                                                  else math.nan, prompt=runs[str(system)])
    return part
