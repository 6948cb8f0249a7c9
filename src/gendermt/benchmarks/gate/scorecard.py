"""GATE on the scorecard: its headline figures, read from its own tables."""

from __future__ import annotations

import math
from pathlib import Path

from gendermt.scorecard.figures import Cell, Figure, Part, pick_run, read_csv


def read(results: Path) -> Part:
    """Exact-match rewriting accuracy (matches / rows) over the overall rows of prf.csv."""
    source = "gate/tables/prf.csv"
    table = read_csv(results / source, ["system", "prompt", "category", "count", "matches"])
    run = pick_run(table["prompt"])
    rows = table[(table["prompt"].astype(str) == run) & (table["category"] == "overall")]
    fig = Figure("gate", "accuracy", "rewriting accuracy", "%", "higher", run, source,
                 "100 × Σ matches / Σ count over the overall rows of every language and "
                 "direction")
    part = Part([fig], list(dict.fromkeys(table["system"].astype(str))))
    for system, sub in rows.groupby("system", sort=False):
        n = sub["count"].sum()
        part.cells[(str(system), fig.key)] = Cell(100 * sub["matches"].sum() / n if n
                                                  else math.nan)
    return part
