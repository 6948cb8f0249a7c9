"""The scorecard: one row per system, each benchmark's headline figures side by side."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from gendermt.errors import GenderMTError

from . import figures as F
from .figures import BENCHMARKS, Cell, Figure

#: Below 10 BLEU a system is not translating (copy-source scores ~2 on FairTranslate's
#: sample): its gender gaps are near 0 because every variant is missed alike.
QUALITY_FLOORS = {"bleu_all": 10.0}


@dataclass
class Scorecard:
    benchmarks: list[str]
    figures: list[Figure]
    systems: list[str]
    ran: dict[str, set[str]]                 # benchmark → systems with results in it
    cells: dict[tuple[str, str, str], Cell]  # (system, benchmark, key) → cell
    notes: list[str] = field(default_factory=list)
    #: Quality floors by figure key (e.g. ``bleu_all``): figures whose ``quality`` is below
    #: it are not coloured as good or bad in the heatmap.
    floors: dict[str, float] = field(default_factory=dict)

    def below_floor(self, system: str, figure: Figure) -> bool:
        """Whether the system's output quality (the figure's ``quality``) is below the
        floor, so that its value says nothing good or bad about the system."""
        if figure.quality is None or figure.quality not in self.floors:
            return False
        quality = self.cells.get((system, figure.benchmark, figure.quality))
        return quality is not None and not (quality.value >= self.floors[figure.quality])

    def cell(self, system: str, figure: Figure) -> Cell | None:
        """The cell, or None where the system did not run the benchmark (or the part of it
        the figure summarises, e.g. one Neo-GATE paradigm); readers record a NaN cell where
        the system ran but the figure is undefined."""
        if system not in self.ran.get(figure.benchmark, set()):
            return None
        return self.cells.get((system, figure.benchmark, figure.key))

    def wide(self) -> pd.DataFrame:
        """One row per system; a column per figure (and its CI bounds where it has one)."""
        rows = []
        for system in self.systems:
            row: dict[str, object] = {"system": system}
            for fig in self.figures:
                cell = self.cell(system, fig)
                row[fig.column] = math.nan if cell is None else cell.value
                if fig.has_ci:
                    row[f"{fig.column} · CI low"] = math.nan if cell is None else cell.ci_low
                    row[f"{fig.column} · CI high"] = math.nan if cell is None else cell.ci_high
            rows.append(row)
        return pd.DataFrame(rows)

    def legend(self) -> pd.DataFrame:
        """One row per figure: its unit, better direction, run, source table and method."""
        return pd.DataFrame([{"column": f.column, "benchmark": f.benchmark, "key": f.key,
                              "unit": f.unit, "better": f.better, "run": f.run,
                              "source": f.source, "how": f.how} for f in self.figures])


def build(results: str | Path, benchmarks: Sequence[str] | None = None,
          systems: Sequence[str] | None = None, bootstrap: dict | None = None,
          fairtranslate_scores: Sequence[str | Path] | None = None,
          floors: dict[str, float] | None = None,
          reader_inputs: dict[str, dict] | None = None) -> Scorecard:
    """Read the tables of ``benchmarks`` (default: those found) under ``results``.

    Rows follow ``systems`` (e.g. the config's order), then any other system found in the
    tables; a system in ``systems`` that ran no benchmark is left out.
    ``fairtranslate_scores``: the per-item score files for the gap CIs (default: every one
    under ``fairtranslate/scores/``). ``floors``: quality floors by figure key (default
    :data:`QUALITY_FLOORS`). ``reader_inputs``: per scorecard key, keyword arguments of its
    reader naming the files it reads beyond its tables (the workflow's rule passes them).
    """
    results = Path(results)
    if not results.is_dir():
        raise GenderMTError(f"{results}: no such results folder")
    wanted = list(benchmarks) if benchmarks is not None else F.available(results)
    unknown = [b for b in wanted if b not in BENCHMARKS]
    if unknown:
        raise GenderMTError(f"no scorecard figures for benchmark(s) {', '.join(unknown)}; "
                            f"known: {', '.join(BENCHMARKS)}")
    wanted = [b for b in BENCHMARKS if b in wanted]  # the scorecard's column order
    options = {key: dict(files) for key, files in (reader_inputs or {}).items()}
    # FairTranslate's gaps have bootstrap CIs: its reader takes the settings and score files
    ft = options.setdefault("fairtranslate", {})
    ft["bootstrap"] = bootstrap
    if fairtranslate_scores is not None:
        ft["score_files"] = fairtranslate_scores
    parts = {b: F.reader(b)(results, **options.get(b, {})) for b in wanted}
    found = list(dict.fromkeys(s for p in parts.values() for s in p.systems))
    order = [s for s in (systems or []) if s in found]
    order += [s for s in found if s not in order]
    notes = [n for p in parts.values() for n in p.notes]
    return Scorecard(
        benchmarks=wanted,
        figures=[f for p in parts.values() for f in p.figures],
        systems=order,
        ran={b: set(p.systems) for b, p in parts.items()},
        cells={(s, b, k): c for b, p in parts.items() for (s, k), c in p.cells.items()},
        notes=notes, floors={**QUALITY_FLOORS, **(floors or {})})


def to_records(card: Scorecard) -> list[dict]:
    """The JSON form: one object per system; per benchmark ``null`` where the system did not
    run it, else ``{"run": ..., <key>: value, <key>_ci: [low, high] (gaps)}``; an undefined
    figure (e.g. no annotated output) is ``null``."""
    def num(x: float) -> float | None:
        return None if x is None or math.isnan(x) else float(x)

    out = []
    for system in card.systems:
        record: dict[str, object] = {"system": system}
        for bench in card.benchmarks:
            figs = [f for f in card.figures if f.benchmark == bench]
            if system not in card.ran.get(bench, set()):
                record[bench] = None
                continue
            obj: dict[str, object] = {"run": ", ".join(dict.fromkeys(f.run for f in figs))}
            for fig in figs:
                cell = card.cell(system, fig) or Cell(math.nan)
                obj[fig.key] = num(cell.value)
                if fig.has_ci:
                    obj[f"{fig.key}_ci"] = [num(cell.ci_low), num(cell.ci_high)]
            record[bench] = obj
        out.append(record)
    return out
