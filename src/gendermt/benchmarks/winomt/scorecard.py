"""WinoMT on the scorecard: its headline figures, read from its own tables."""

from __future__ import annotations

from pathlib import Path

from gendermt.scorecard.figures import Cell, Figure, Part, num, read_csv


def read(results: Path) -> Part:
    """Accuracy, ΔG and ΔS per target language, as summary.csv has them, beside the share of
    entities whose gender the reader could read in the translation (100 − share_unknown):
    the quality floor of the three (an output that loops or is not translated has no
    readable gender, and its ΔS says nothing)."""
    source = "winomt/tables/summary.csv"
    table = read_csv(results / source, ["system", "lang", "acc", "delta_g", "delta_s"])
    part = Part(systems=list(dict.fromkeys(table["system"].astype(str))))
    readable = "share_unknown" in table.columns
    for lang, rows in table.groupby("lang", sort=False):
        n = sorted({int(v) for v in rows["n"].dropna()}) if "n" in rows else []
        items = f"; over {', '.join(map(str, n))} sentences" if n else ""
        quality = f"readable_{lang}" if readable else None
        if readable:
            fig = Figure("winomt", quality, f"readable genders ({lang})",
                         "% of entities with a gender read in the output", "higher",
                         str(lang), source, f"100 − column share_unknown, lang {lang}{items}")
            part.figures.append(fig)
            for row in rows.itertuples():
                part.cells[(str(row.system), fig.key)] = Cell(100 - num(row.share_unknown))
        for key, label, unit, better in (
                ("acc", "accuracy", "%", "higher"),
                ("delta_g", "ΔG", "F1 points (male − female)", "closer to 0"),
                ("delta_s", "ΔS", "accuracy points (pro − anti)", "closer to 0")):
            fig = Figure("winomt", f"{key}_{lang}", f"{label} ({lang})", unit, better,
                         str(lang), source, f"column {key}, lang {lang}{items}",
                         quality=quality)
            part.figures.append(fig)
            for row in rows.itertuples():
                part.cells[(str(row.system), fig.key)] = Cell(num(getattr(row, key)))
    return part
