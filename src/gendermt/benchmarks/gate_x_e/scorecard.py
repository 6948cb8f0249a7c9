"""GATE X-E on the scorecard: its headline figures, read from its own tables."""

from __future__ import annotations

import math
from pathlib import Path

from gendermt.scorecard.figures import Cell, Figure, Part, pick_run, read_csv


def read(results: Path) -> Part:
    """Exact-match rewriting accuracy over every Overall cell of Table 2 (all languages)."""
    source = "gate-x-e/tables/accuracy.csv"
    table = read_csv(results / source, ["system", "prompt", "subtype", "requested", "n",
                                        "correct"])
    run = pick_run(table["prompt"])
    # the relaxed column re-counts the Negative instances under a looser rule
    rows = table[(table["prompt"].astype(str) == run) & (table["subtype"] == "Overall")
                 & (table["requested"] != "Neut (relaxed)")]
    fig = Figure("gate-x-e", "accuracy", "rewriting accuracy", "%", "higher", run, source,
                 "100 × Σ correct / Σ n over the Overall rows of every language, original and "
                 "requested gender (the relaxed Negative → Neut row left out)")
    part = Part([fig], list(dict.fromkeys(table["system"].astype(str))))
    for system, sub in rows.groupby("system", sort=False):
        n = sub["n"].sum()
        part.cells[(str(system), fig.key)] = Cell(100 * sub["correct"].sum() / n if n
                                                  else math.nan)
    return part
