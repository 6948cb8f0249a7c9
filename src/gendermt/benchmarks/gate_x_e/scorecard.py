"""GATE X-E on the scorecard: its headline figures, read from its own tables."""

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
    """Exact-match rewriting accuracy over every Overall cell of Table 2 (all languages)."""
    source = "gate-x-e/tables/accuracy.csv"
    table = read_csv(results / source, ["system", "prompt", "subtype", "requested", "n",
                                        "correct"])
    runs = headline_runs(table, headline, order, "gate-x-e")
    run = run_label(runs)
    # the relaxed column re-counts the Negative instances under a looser rule
    rows = headline_rows(table, runs)
    rows = rows[(rows["subtype"] == "Overall") & (rows["requested"] != "Neut (relaxed)")]
    fig = Figure("gate-x-e", "accuracy", "rewriting accuracy", "%", "higher", run, source,
                 "100 × Σ correct / Σ n over the Overall rows of every language, original and "
                 "requested gender (the relaxed Negative → Neut row left out)")
    part = Part([fig], list(dict.fromkeys(table["system"].astype(str))))
    for system, sub in rows.groupby("system", sort=False):
        n = sub["n"].sum()
        part.cells[(str(system), fig.key)] = Cell(100 * sub["correct"].sum() / n if n
                                                  else math.nan, prompt=runs[str(system)])
    return part
