"""The scorecard: one row per system, each benchmark's headline figures side by side."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from gendermt.core.errors import GenderMTError
from gendermt.scorecard import figures as F
from gendermt.scorecard.figures import LABELS, Cell, Figure
from gendermt.scoring.output_quality import CLEAN_SHARE_FLOOR

#: Below 10 BLEU a system is not translating (copy-source scores ~2 on FairTranslate's
#: sample): its gender gaps are near 0 because every variant is missed alike. A flat key
#: applies to every benchmark with a quality figure of that key.
QUALITY_FLOORS = {"bleu_all": 10.0}
#: Per benchmark (``*``: every one), the floors of its other quality figures: the share of
#: outputs that are neither an echo of the prompt nor in the wrong language (``clean_share``,
#: %, gendermt.scoring.output_checks) and WinoMT's share of entities whose gender could be read
#: (``readable``, %, per language: ``readable_<lang>``; SmolLM2's loops leave 60 %).
BENCHMARK_FLOORS: dict[str, dict[str, float]] = {"*": {"clean_share": CLEAN_SHARE_FLOOR}}


def contract_floors(key: str) -> dict[str, float]:
    """A benchmark's own floors (its contract's ``Scorecard.floors``)."""
    from gendermt.core import registry

    return next((dict(b.scorecard.floors) for b in registry.benchmarks()
                 if b.scorecard and b.scorecard.key == key), {})


def floors_by_benchmark(floors: Mapping[str, Any] | None,
                        benchmarks: Sequence[str]) -> dict[str, dict[str, float]]:
    """The floors of each benchmark: the defaults, then the config's (a number: every
    benchmark's figure of that key; a mapping under a benchmark's name: that benchmark's)."""
    out = {b: {**BENCHMARK_FLOORS["*"], **QUALITY_FLOORS, **contract_floors(b),
               **BENCHMARK_FLOORS.get(b, {})}
           for b in benchmarks}
    for key, value in (floors or {}).items():
        if isinstance(value, Mapping):
            bench = F.CONFIG_KEYS.get(str(key), str(key))
            if bench not in LABELS:
                raise GenderMTError(f"scorecard.quality_floors.{key}: no such benchmark "
                                    f"(known: {', '.join(LABELS)})")
            if bench in out:
                out[bench].update({str(k): float(v) for k, v in value.items()})
        else:
            for bench in out:
                out[bench][str(key)] = float(value)
    return out


def benchmark_floors(quality_floors: Mapping[str, Any] | None, key: str) -> dict[str, float]:
    """The scorecard's floors of a benchmark (its scorecard key), config's included: a
    benchmark's figures mark exactly the runs the scorecard marks."""
    return floors_by_benchmark(quality_floors, [key])[key]


def floor_of(floors: Mapping[str, float], quality: str) -> float | None:
    """The floor of a quality figure: its key's, or its stem's (``readable`` for
    ``readable_fr``)."""
    if quality in floors:
        return floors[quality]
    stems = [k for k in floors if quality.startswith(f"{k}_")]
    return floors[max(stems, key=len)] if stems else None


@dataclass
class Scorecard:
    benchmarks: list[str]
    figures: list[Figure]
    systems: list[str]
    ran: dict[str, set[str]]                 # benchmark → systems with results in it
    cells: dict[tuple[str, str, str], Cell]  # (system, benchmark, key) → cell
    notes: list[str] = field(default_factory=list)
    #: Quality floors by figure key (e.g. ``bleu_all``), the flat legacy form: figures whose
    #: ``quality`` is below it are not coloured as good or bad.
    floors: dict[str, float] = field(default_factory=dict)
    #: Quality floors per benchmark and key (what :meth:`below_floor` uses).
    benchmark_floors: dict[str, dict[str, float]] = field(default_factory=dict)
    #: Each system's kind (``model``, ``baseline``, ``oracle``:
    #: gendermt.translation.backends.system_kind); a system not named is a model. Oracles are
    #: reference points: never contenders for a lead, never tinted.
    kinds: dict[str, str] = field(default_factory=dict)
    #: Paired tests per (benchmark, figure key): {((system, run), (system, run)): p}, both
    #: orders (the benchmarks' tables/pairs.csv, unadjusted).
    pairs: dict[tuple[str, str], dict] = field(default_factory=dict)

    def kind(self, system: str) -> str:
        return self.kinds.get(system, "model")

    def floors_of(self, benchmark: str) -> dict[str, float]:
        return self.benchmark_floors.get(benchmark, self.floors)

    def below_floor(self, system: str, figure: Figure) -> bool:
        """Whether one of the system's output qualities that the figure depends on (its
        ``quality_keys``) is below its floor, so that the value says nothing good or bad
        about the system."""
        return bool(self.failed_floors(system, figure))

    def failed_floors(self, system: str, figure: Figure) -> list[str]:
        """The quality figures (keys) of the figure's dependencies that are below their
        floor for this system."""
        floors = self.floors_of(figure.benchmark)
        failed = []
        for key in figure.quality_keys:
            floor = floor_of(floors, key)
            quality = self.cells.get((system, figure.benchmark, key))
            if floor is not None and quality is not None and not math.isnan(quality.value) \
                    and not (quality.value >= floor):
                failed.append(key)
        return failed

    def low_quality(self, system: str, benchmark: str) -> list[str]:
        """Every quality figure of the benchmark below its floor for the system."""
        return list(dict.fromkeys(k for f in self.figures if f.benchmark == benchmark
                                  for k in self.failed_floors(system, f)))

    def prompts(self, system: str, benchmark: str) -> list[str]:
        """The prompts (runs) the system's cells of the benchmark come from."""
        return list(dict.fromkeys(
            p for f in self.figures if f.benchmark == benchmark
            if (c := self.cell(system, f)) is not None and c.prompt
            for p in c.prompt.split(", ")))

    def prompted(self, benchmark: str) -> bool:
        """Whether the benchmark's cells name their prompts (its runs are prompts that
        systems may differ in; WinoMT's and GRAPE's runs are their columns' languages)."""
        return any(c.prompt for (_, b, _), c in self.cells.items() if b == benchmark)

    def cell(self, system: str, figure: Figure) -> Cell | None:
        """The cell, or None where the system did not run the benchmark (or the part of it
        the figure summarises, e.g. one Neo-GATE paradigm); readers record a NaN cell where
        the system ran but the figure is undefined."""
        if system not in self.ran.get(figure.benchmark, set()):
            return None
        return self.cells.get((system, figure.benchmark, figure.key))

    def layout(self) -> list[tuple[str, Figure | None]]:
        """The shown columns in order: per benchmark a ``(benchmark, None)`` prompt column
        where its cells name their prompts, then its ``(benchmark, figure)`` columns."""
        out: list[tuple[str, Figure | None]] = []
        for bench in self.benchmarks:
            if self.prompted(bench):
                out.append((bench, None))
            out += [(bench, f) for f in self.figures if f.benchmark == bench]
        return out

    def prompt_text(self, system: str, benchmark: str) -> str:
        """The prompt cell: the system's prompt(s) on the benchmark (blank: did not run it)."""
        if system not in self.ran.get(benchmark, set()):
            return ""
        return ", ".join(self.prompts(system, benchmark))

    def wide(self) -> pd.DataFrame:
        """One row per system; a column per figure (and its CI bounds where it has one);
        per benchmark its prompt(s) (where they are prompts) and its quality figures below
        their floor (``· low quality``, blank: none)."""
        rows = []
        for system in self.systems:
            row: dict[str, object] = {"system": system}
            for fig in self.figures:
                label = LABELS.get(fig.benchmark, fig.benchmark)
                if self.prompted(fig.benchmark) and f"{label} · prompt" not in row:
                    row[f"{label} · prompt"] = self.prompt_text(system, fig.benchmark)
                cell = self.cell(system, fig)
                row[fig.column] = math.nan if cell is None else cell.value
                if fig.has_ci:
                    row[f"{fig.column} · CI low"] = math.nan if cell is None else cell.ci_low
                    row[f"{fig.column} · CI high"] = math.nan if cell is None else cell.ci_high
            for bench in self.benchmarks:
                label = LABELS.get(bench, bench)
                row[f"{label} · low quality"] = ", ".join(self.low_quality(system, bench))
            rows.append(row)
        return pd.DataFrame(rows)

    def legend(self) -> pd.DataFrame:
        """One row per figure: its unit, better direction, run, source table and method."""
        return pd.DataFrame([{"column": f.column, "benchmark": f.benchmark, "key": f.key,
                              "unit": f.unit, "better": f.better, "run": f.run,
                              "source": f.source, "how": f.how, "interval": f.interval}
                             for f in self.figures])

    def contenders(self, figure: Figure) -> list[str]:
        """The systems that may lead a figure: not oracles, not below a quality floor the
        figure depends on, with a value."""
        out = []
        for system in self.systems:
            cell = self.cell(system, figure)
            if cell is None or math.isnan(cell.value) or self.kind(system) == "oracle" \
                    or self.failed_floors(system, figure):
                continue
            out.append(system)
        return out


def build(results: str | Path, benchmarks: Sequence[str] | None = None,
          systems: Sequence[str] | None = None, bootstrap: dict | None = None,
          score_records: Sequence[Mapping[str, Any]] | None = None,
          floors: Mapping[str, Any] | None = None,
          reader_inputs: dict[str, dict] | None = None,
          headline: Mapping[str, Mapping[str, str]] | None = None,
          prompt_order: Mapping[str, Sequence[str]] | None = None,
          kinds: Mapping[str, str] | None = None) -> Scorecard:
    """Read the tables of ``benchmarks`` (default: those found) under ``results``.

    Rows follow ``systems`` (e.g. the config's order), then any other system found in the
    tables; a system in ``systems`` that ran no benchmark is left out.
    ``score_records``: per-item score files for the readers that take them (FairTranslate's
    gap CIs), as records
    (``{system, prompt, path}``; ``{path}`` for COMET's file of all runs; default: every one
    under ``fairtranslate/scores/``). ``floors``: quality floors by figure key (default
    :data:`QUALITY_FLOORS`). ``reader_inputs``: per scorecard key, keyword arguments of its
    reader naming the files it reads beyond its tables (the workflow's rule passes them).
    ``headline``: per benchmark, the headline prompt of a system (config
    ``scorecard.headline_prompts``); ``prompt_order``: per benchmark, its configured prompts
    (a system's default headline is the first of them it ran). ``kinds``: each system's
    kind (model, baseline, oracle: gendermt.translation.backends.system_kind); oracles never lead.
    Where a benchmark has paired tests (tables/pairs.csv), each contender's cell says
    whether it is in the figure's lead group (:func:`mark_leads`).
    """
    results = Path(results)
    if not results.is_dir():
        raise GenderMTError(f"{results}: no such results folder")
    wanted = list(benchmarks) if benchmarks is not None else F.available(results)
    unknown = [b for b in wanted if b not in LABELS]
    if unknown:
        raise GenderMTError(f"no scorecard figures for benchmark(s) {', '.join(unknown)}; "
                            f"known: {', '.join(LABELS)}")
    wanted = [b for b in LABELS if b in wanted]  # the scorecard's column order
    options = {key: dict(files) for key, files in (reader_inputs or {}).items()}
    for key, chosen in (headline or {}).items():
        bench = F.CONFIG_KEYS.get(str(key), str(key))
        if bench not in LABELS:
            raise GenderMTError(f"scorecard.headline_prompts.{key}: no such benchmark "
                                f"(known: {', '.join(LABELS)})")
        options.setdefault(bench, {})["headline"] = dict(chosen or {})
    for key, order in (prompt_order or {}).items():
        options.setdefault(F.CONFIG_KEYS.get(str(key), str(key)), {})["order"] = list(order)
    # the bootstrap settings and per-item score files go to every reader, which takes what
    # its signature names (read_part): FairTranslate's, for its gaps' CIs
    for bench in wanted:
        options.setdefault(bench, {})["bootstrap"] = bootstrap
        if score_records is not None:
            options[bench]["score_records"] = score_records
    parts = {b: F.read_part(b, results, options.get(b, {})) for b in wanted}
    found = list(dict.fromkeys(s for p in parts.values() for s in p.systems))
    order = [s for s in (systems or []) if s in found]
    order += [s for s in found if s not in order]
    notes = [n for p in parts.values() for n in p.notes]
    card = Scorecard(
        benchmarks=wanted,
        figures=[f for p in parts.values() for f in p.figures],
        systems=order,
        ran={b: set(p.systems) for b, p in parts.items()},
        cells={(s, b, k): c for b, p in parts.items() for (s, k), c in p.cells.items()},
        notes=notes,
        floors={**QUALITY_FLOORS, **{k: float(v) for k, v in (floors or {}).items()
                                     if not isinstance(v, Mapping)}},
        benchmark_floors=floors_by_benchmark(floors, wanted),
        kinds=dict(kinds or {}),
        pairs={(b, k): tests for b, p in parts.items() for k, tests in p.pairs.items()})
    from gendermt.analysis.resample import Settings

    mark_leads(card, Settings.of(bootstrap).alpha)
    return card


def mark_leads(card: Scorecard, alpha: float = 0.05) -> None:
    """Each contender's ``lead`` (:meth:`Scorecard.contenders`) on every figure with paired
    tests: in the lead group of gendermt.analysis.resample.lead_group (the best, its exact
    ties, and every contender the Holm-corrected paired test against it cannot separate at
    ``alpha``). Non-contenders keep ``lead`` None (not in the race), and so does a lone
    contender: a lead group of one with nothing to compare it to says nothing."""
    from dataclasses import replace

    from gendermt.analysis.resample import lead_group

    for fig in card.figures:
        tests = card.pairs.get((fig.benchmark, fig.key))
        if not tests:
            continue
        contenders = card.contenders(fig)
        if len(contenders) < 2:
            continue
        cells = {s: card.cell(s, fig) for s in contenders}
        runs = {s: (s, F.cell_run(c, fig)) for s, c in cells.items()}

        def p_value(a: str, b: str, tests=tests, runs=runs) -> float:
            return tests.get((runs[a], runs[b]), math.nan)

        group = set(lead_group({s: c.value for s, c in cells.items()}, fig.better, p_value,
                               alpha))
        for system, cell in cells.items():
            card.cells[(system, fig.benchmark, fig.key)] = replace(cell,
                                                                   lead=system in group)


def _runs_of(card: Scorecard, system: str, figs: list[Figure]) -> list[str]:
    """A benchmark whose runs are its columns' languages (WinoMT, GRAPE): the runs the system
    has a figure of, each once. A figure over several runs (the clean-output share names them
    all) counts only where no figure of one run has a value; else every run of the columns."""
    def split(run: object) -> list[str]:
        return [r for r in str(run or "").split(", ") if r]

    valued = [f for f in figs if (c := card.cell(system, f)) is not None
              and not math.isnan(c.value)]
    ran = [r for f in valued if len(split(f.run)) == 1 for r in split(f.run)] \
        or [r for f in valued for r in split(f.run)] or [r for f in figs for r in split(f.run)]
    return list(dict.fromkeys(ran))


def to_records(card: Scorecard) -> list[dict]:
    """The JSON form: one object per system; per benchmark ``null`` where the system did not
    run it, else ``{"run": ..., <key>: value, <key>_ci: [low, high] (where it has an
    interval), <key>_n: units (where known), <key>_lead: in the lead group (contenders of a
    figure with paired tests), "low_quality": [<quality keys below their floor>]}``;
    ``run``: the system's prompt(s) on that benchmark; an undefined figure (e.g. no
    annotated output) is ``null``."""
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
            prompts = card.prompts(system, bench) or _runs_of(card, system, figs)
            obj: dict[str, object] = {"run": ", ".join(prompts)}
            for fig in figs:
                cell = card.cell(system, fig) or Cell(math.nan)
                obj[fig.key] = num(cell.value)
                if fig.has_ci:
                    obj[f"{fig.key}_ci"] = [num(cell.ci_low), num(cell.ci_high)]
                if cell.n is not None:
                    obj[f"{fig.key}_n"] = int(cell.n)
                if cell.lead is not None:
                    obj[f"{fig.key}_lead"] = bool(cell.lead)
            # the quality figures below their floor (empty: none): its figures say little
            obj["low_quality"] = card.low_quality(system, bench)
            record[bench] = obj
        out.append(record)
    return out
