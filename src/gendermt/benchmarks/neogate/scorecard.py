"""Neo-GATE on the scorecard: its headline figures, read from its own tables."""

from __future__ import annotations

from pathlib import Path

from gendermt.scorecard.figures import Cell, Figure, Part, num, read_csv


def read(results: Path) -> Part:
    """Coverage-weighted accuracy and mis-generation of the zero-shot runs, per paradigm."""
    source = "neogate/tables/zeroshot.csv"
    table = read_csv(results / source, ["system", "paradigm", "prompt", "cwa", "misgeneration"])
    part = Part(systems=list(dict.fromkeys(table["system"].astype(str))))
    for paradigm, rows in table.groupby("paradigm", sort=False):
        run = str(rows["prompt"].iloc[0])
        for key, label, better in (("cwa", "CWA", "higher"),
                                   ("misgeneration", "mis-generation", "lower")):
            fig = Figure("neogate", f"{key}_{paradigm}", f"{label} ({paradigm})", "%", better,
                         run, source, f"column {key}, paradigm {paradigm}")
            part.figures.append(fig)
            for row in rows.itertuples():
                part.cells[(str(row.system), fig.key)] = Cell(num(getattr(row, key)),
                                                              prompt=str(row.prompt))
    return part
