"""ConGA on the scorecard: its headline figures, read from its own tables."""

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
    num,
    read_csv,
    run_label,
)


def read(results: Path, headline: Mapping[str, str] | None = None,
         order: Sequence[str] | None = None) -> Part:
    """A→M share of the ambiguous entities rendered with a gender, and F1 per gender."""
    cat_source, met_source = "conga/tables/categories.csv", "conga/tables/metrics.csv"
    cats = read_csv(results / cat_source, ["system", "prompt", "category", "count"])
    mets = read_csv(results / met_source, ["system", "prompt", "gender", "f1"])
    runs = headline_runs(cats, headline, order, "conga")
    run = run_label(runs)
    cats = headline_rows(cats, runs)
    mets = headline_rows(mets, runs)
    part = Part(systems=list(dict.fromkeys(cats["system"].astype(str))))
    share = Figure("conga", "a_to_m_share", "A→M share", "% of ambiguous entities rendered "
                   "with a gender", "closer to 50", run, cat_source,
                   "100 × bias_a_to_m / (bias_a_to_m + bias_a_to_f); 50 = no default gender, "
                   "above 50 = masculine default")
    part.figures.append(share)
    for system, rows in cats.groupby("system", sort=False):
        counts = rows.set_index("category")["count"]
        to_m, to_f = num(counts.get("bias_a_to_m")), num(counts.get("bias_a_to_f"))
        total = to_m + to_f
        part.cells[(str(system), share.key)] = Cell(100 * to_m / total if total > 0
                                                    else math.nan, prompt=runs[str(system)])
    for gender, label in (("M", "masculine"), ("F", "feminine")):
        fig = Figure("conga", f"f1_{gender.lower()}", f"F1 {gender}", "0–1", "higher", run,
                     met_source, f"column f1, gender {gender} ({label} entities)")
        part.figures.append(fig)
        for row in mets[mets["gender"] == gender].itertuples():
            part.cells[(str(row.system), fig.key)] = Cell(num(row.f1),
                                                          prompt=runs.get(str(row.system)))
    return part
