"""GAMBIT (GRAPE) on the scorecard: its headline figures, read from its own tables."""

from __future__ import annotations

from pathlib import Path

from gendermt.scorecard.figures import Cell, Figure, Part, num, read_csv


def read(results: Path) -> Part:
    """GRAPE_m against parity over all of GAMBIT at ISCO 4-digit level, per target language
    (the paper's Table 2, left half): 0 = parity, 1 = masculine forms twice as often."""
    source = "gambit/tables/grape.csv"
    table = read_csv(results / source, ["system", "lang", "level", "reference", "grape_m"])
    table = table[(table["reference"] == "parity") & (table["level"].astype(str) == "4")]
    part = Part(systems=list(dict.fromkeys(table["system"].astype(str))))
    for lang, rows in table.groupby("lang", sort=False):
        fig = Figure("grape", f"grape_m_parity_{lang}", f"GRAPE_m^parity ({lang})",
                     "relative excess of masculine forms over parity", "closer to 0",
                     str(lang), source, f"column grape_m, reference parity, level 4, lang {lang}")
        part.figures.append(fig)
        for row in rows.itertuples():
            part.cells[(str(row.system), fig.key)] = Cell(num(row.grape_m))
    return part
