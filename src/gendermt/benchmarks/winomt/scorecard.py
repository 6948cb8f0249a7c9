"""WinoMT on the scorecard: its headline figures, read from its own tables."""

from __future__ import annotations

from pathlib import Path

from gendermt.scorecard.figures import Cell, Figure, Part, num, read_csv


def read(results: Path) -> Part:
    """Accuracy, ΔG and ΔS per target language, as summary.csv has them."""
    source = "winomt/tables/summary.csv"
    table = read_csv(results / source, ["system", "lang", "acc", "delta_g", "delta_s"])
    part = Part(systems=list(dict.fromkeys(table["system"].astype(str))))
    for lang, rows in table.groupby("lang", sort=False):
        for key, label, unit, better in (
                ("acc", "accuracy", "%", "higher"),
                ("delta_g", "ΔG", "F1 points (male − female)", "closer to 0"),
                ("delta_s", "ΔS", "accuracy points (pro − anti)", "closer to 0")):
            fig = Figure("winomt", f"{key}_{lang}", f"{label} ({lang})", unit, better,
                         str(lang), source, f"column {key}, lang {lang}")
            part.figures.append(fig)
            for row in rows.itertuples():
                part.cells[(str(row.system), fig.key)] = Cell(num(getattr(row, key)))
    return part
