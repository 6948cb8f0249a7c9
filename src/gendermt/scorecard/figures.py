"""What the scorecard shows: each benchmark's headline figures, read from its own tables.

Every benchmark's reader (``read`` in its package's ``scorecard.py``, named by its contract)
takes the results folder and returns the benchmark's :class:`Figure` columns and the
:class:`Cell` of each system that ran it. Values are the tables' own numbers, or a
ratio / difference of them (said in ``how``). Intervals, n and the paired tests behind the
lead group come from each benchmark's ``tables/intervals.csv`` and ``pairs.csv``
(:func:`with_intervals`; gendermt.analysis.intervals), FairTranslate's gap CIs from its
per-item scores (:mod:`.gap`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from gendermt.core import registry
from gendermt.core.contract import resolve
from gendermt.core.errors import DatasetError, GenderMTError

if TYPE_CHECKING:  # imported where used: the workflow imports this module to plan
    import pandas as pd

# In the scorecard's column order (the benchmarks' `order`): scorecard key → label, the tables
# its figures come from (relative to the results folder; the workflow rule lists them as its
# inputs), and the workflow config's key where it differs (GAMBIT's column is "grape").
_PARTS = [b for b in registry.benchmarks() if b.scorecard]
LABELS = {b.scorecard.key: b.scorecard.label for b in _PARTS}
TABLES = {b.scorecard.key: list(b.scorecard.tables) for b in _PARTS}
CONFIG_KEYS = {b.name: b.scorecard.key for b in _PARTS if b.name != b.scorecard.key}
# The run a benchmark with several prompts is summarised by, in order of preference.
BASELINE_PROMPTS = ("baseline", "zeroshot")


@dataclass(frozen=True)
class Figure:
    benchmark: str
    key: str          # the JSON key inside the benchmark's object
    label: str        # column label
    unit: str
    better: str       # "higher", "lower", "closer to 0", "closer to 50"
    run: str          # which run (prompt) of the benchmark it summarises
    source: str       # the table it comes from, relative to the results folder
    how: str          # how the value is read from that table
    has_ci: bool = False
    # The key of the figure (same benchmark) that says how good the system's output is: a
    # gap between poor outputs is no sign of fairness, so the heatmap leaves a gap
    # uncoloured where that quality is below the scorecard's floor.
    quality: str | None = None
    # Further quality figures (same benchmark) it depends on, e.g. the share of outputs that
    # are neither an echo of the prompt nor in the wrong language (``clean_share``).
    qualities: tuple[str, ...] = ()
    #: How its intervals were computed (method, unit, resamples, seed, level: the
    #: benchmark's tables/intervals.csv), "" where it has none.
    interval: str = ""

    @property
    def quality_keys(self) -> tuple[str, ...]:
        """Every quality figure this figure depends on (empty: it does not depend on the
        system translating)."""
        return (*((self.quality,) if self.quality else ()), *self.qualities)

    @property
    def column(self) -> str:
        return f"{LABELS.get(self.benchmark, self.benchmark)} · {self.label}"


@dataclass(frozen=True)
class Cell:
    value: float
    ci_low: float = math.nan
    ci_high: float = math.nan
    #: the prompt (run) of the benchmark the value comes from, where systems may differ
    prompt: str | None = None
    #: the units the value rests on (sentences, items, pairs, ...), where known
    n: int | None = None
    #: whether the system is in the figure's lead group: the leader and every system a
    #: paired test on the same items cannot separate from it (None: not tested)
    lead: bool | None = None


@dataclass
class Part:
    """One benchmark's figures, the systems that ran it, their cells and notes."""
    figures: list[Figure] = field(default_factory=list)
    systems: list[str] = field(default_factory=list)
    cells: dict[tuple[str, str], Cell] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    #: Paired tests of the figures (the benchmark's tables/pairs.csv): figure key →
    #: {((system, run), (system, run)): two-sided p, unadjusted}, both orders.
    pairs: dict[str, dict[tuple[tuple[str, str], tuple[str, str]], float]] = \
        field(default_factory=dict)


def plural(unit: str) -> str:
    """A unit's plural, its qualifier kept after it: ``segment (per language)`` →
    ``segments (per language)``."""
    word, sep, rest = unit.partition(" (")
    return f"{word}s{sep}{rest}"


def read_csv(path: Path, columns: Sequence[str]) -> pd.DataFrame:
    import pandas as pd

    if not path.is_file():
        raise DatasetError(path, "missing: run the benchmark's workflow rules first")
    frame = pd.read_csv(path, keep_default_na=True)
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise DatasetError(path, f"has no column(s) {', '.join(missing)}", column=missing[0])
    return frame


def pick_run(prompts: Sequence[str]) -> str:
    """The benchmark's baseline run: ``baseline`` or ``zeroshot`` if present, else the first."""
    prompts = list(dict.fromkeys(str(p) for p in prompts))
    for name in BASELINE_PROMPTS:
        if name in prompts:
            return name
    return prompts[0]


def headline_runs(table: pd.DataFrame, headline: Mapping[str, str] | None = None,
                  order: Sequence[str] | None = None, where: str = "") -> dict[str, str]:
    """Each system's headline run (prompt) in a table with ``system`` and ``prompt`` columns:
    the one ``headline`` names for it (config ``scorecard.headline_prompts``), else the first
    prompt it ran in ``order`` (the benchmark's configured prompts), else ``baseline`` /
    ``zeroshot`` where it ran one, else its first in the table. A system a headline names that
    did not run that prompt is an error (``where`` names the benchmark)."""
    runs: dict[str, str] = {}
    for system, rows in table.groupby(table["system"].astype(str), sort=False):
        ran = list(dict.fromkeys(rows["prompt"].astype(str)))
        wanted = (headline or {}).get(system)
        if wanted is not None:
            if str(wanted) not in ran:
                raise GenderMTError(
                    f"scorecard.headline_prompts.{where}.{system}: {wanted!r} was not run "
                    f"by {system} (it ran: {', '.join(ran)})")
            runs[system] = str(wanted)
            continue
        first = [p for p in (order or []) if str(p) in ran]
        runs[system] = str(first[0]) if first else pick_run(ran)
    return runs


def headline_rows(table: pd.DataFrame, runs: Mapping[str, str]) -> pd.DataFrame:
    """The rows of each system's headline run."""
    return table[[runs.get(str(s)) == str(p) for s, p in zip(table["system"], table["prompt"],
                                                           strict=True)]]


def run_label(runs: Mapping[str, str]) -> str:
    """A figure's ``run`` where systems may differ: the common prompt, or each system's."""
    prompts = list(dict.fromkeys(runs.values()))
    if len(prompts) <= 1:
        return prompts[0] if prompts else ""
    common = max(prompts, key=list(runs.values()).count)
    others = [f"{s}: {p}" for s, p in runs.items() if p != common]
    return f"{common} ({'; '.join(others)})"


def num(value) -> float:
    import pandas as pd

    return math.nan if value is None or pd.isna(value) else float(value)


def reader(key: str) -> Callable[..., Part]:
    """The benchmark's reader (its contract's ``scorecard.reader``): results folder → Part."""
    return resolve(next(b.scorecard.reader for b in _PARTS if b.scorecard.key == key))


def read_part(key: str, results: Path, options: Mapping[str, object]) -> Part:
    """Run the benchmark's reader with the options it takes (``headline`` and ``order``
    only go to readers whose runs are prompts), then mark its figures as depending on its
    output checks (:func:`with_output_checks`)."""
    import inspect

    read = reader(key)
    accepted = inspect.signature(read).parameters
    kwargs = {k: v for k, v in options.items() if k in accepted}
    bootstrap = options.get("bootstrap")
    level = float((bootstrap or {}).get("level", 0.95)) if isinstance(bootstrap, Mapping) \
        else 0.95
    return with_intervals(with_output_checks(read(results, **kwargs), results, key, level),
                          results, key)


#: Every benchmark's intervals and paired tests of its headline figures (its ``*_intervals``
#: rule, gendermt.analysis.intervals).
INTERVALS_TABLE = "{folder}/tables/intervals.csv"
PAIRS_TABLE = "{folder}/tables/pairs.csv"


def interval_tables(key: str) -> list[str]:
    """The intervals and pairs tables of a scorecard key (relative to the results folder)."""
    folder = next((b.name for b in _PARTS if b.scorecard.key == key), key)
    return [INTERVALS_TABLE.format(folder=folder), PAIRS_TABLE.format(folder=folder)]


def cell_run(cell: Cell, figure: Figure) -> str:
    """The run a cell's value comes from: its prompt, else the figure's run (WinoMT's
    language)."""
    return str(cell.prompt) if cell.prompt else str(figure.run)


def with_intervals(part: Part, results: Path, key: str) -> Part:
    """``part`` with each cell's interval and n (and ``has_ci`` and ``interval`` on its
    figures) from the benchmark's intervals.csv, and its paired tests from pairs.csv, where
    the results folder has them. A cell takes the row of its system and run; a row whose
    value is not the cell's is an error (the two tables would disagree)."""
    from dataclasses import replace

    intervals_path, pairs_path = (Path(results) / t for t in interval_tables(key))
    if not intervals_path.is_file():
        return part
    table = read_csv(intervals_path, ["figure", "system", "prompt", "value", "ci_low",
                                      "ci_high", "n", "unit", "method"])
    rows = {(str(r.figure), str(r.system), str(r.prompt)): r for r in table.itertuples()}
    figures = []
    for fig in part.figures:
        methods = []
        for (system, k), cell in list(part.cells.items()):
            if k != fig.key:
                continue
            row = rows.get((fig.key, system, cell_run(cell, fig)))
            if row is None:
                continue
            if not math.isclose(num(row.value), cell.value, rel_tol=1e-6, abs_tol=1e-6) \
                    and not (math.isnan(cell.value) and math.isnan(num(row.value))):
                raise DatasetError(intervals_path, f"{fig.key} of {system}: value "
                                   f"{row.value} but the scorecard's table says {cell.value}")
            part.cells[(system, k)] = replace(cell, ci_low=num(row.ci_low),
                                              ci_high=num(row.ci_high), n=int(row.n))
            level = getattr(row, "level", math.nan)
            methods.append(f"{int(round(100 * num(level)))}% {row.method} over "
                           f"{plural(str(row.unit))}"
                           + (f" ({int(row.resamples)} resamples, seed {int(row.seed)})"
                              if "bootstrap" in str(row.method) else ""))
        if methods:
            fig = replace(fig, has_ci=True, interval="; ".join(dict.fromkeys(methods)))
        figures.append(fig)
    part.figures = figures
    if pairs_path.is_file():
        pairs = read_csv(pairs_path, ["figure", "system_a", "prompt_a", "system_b",
                                      "prompt_b", "p"])
        for r in pairs.itertuples():
            a, b = (str(r.system_a), str(r.prompt_a)), (str(r.system_b), str(r.prompt_b))
            tests = part.pairs.setdefault(str(r.figure), {})
            tests[(a, b)] = tests[(b, a)] = num(r.p)
    return part


#: Every benchmark's per-run counts of echoes and wrong-language outputs (output_checks rule).
CHECKS_TABLE = "{folder}/tables/output_checks.csv"


def checks_table(key: str) -> str:
    """The output-checks table of a scorecard key (relative to the results folder)."""
    folder = next((b.name for b in _PARTS if b.scorecard.key == key), key)
    return CHECKS_TABLE.format(folder=folder)


def with_output_checks(part: Part, results: Path, key: str, level: float = 0.95) -> Part:
    """``part`` with a ``clean_share`` figure (% of the run's outputs that are neither an echo
    of the prompt nor in the wrong language) where the benchmark's output-checks table is in
    the results folder, and every figure that is not itself a quality figure depending on it
    (so that the floor marks a run of echoes like one of poor translations). A system's cell
    is its headline run's (the prompt of its other cells; of several, the lowest share), with
    Wilson's score interval at ``level`` over that run's outputs (a count of every output,
    not resampled: gendermt.analysis.resample.wilson) and n, its outputs."""
    source = checks_table(key)
    path = Path(results) / source
    if not part.figures or not path.is_file():
        return part
    from gendermt.analysis.resample import WILSON, wilson

    table = read_csv(path, ["system", "prompt", "items", "ok", "clean_share"])
    # the quality figures themselves (BLEU/chrF over all items, WinoMT's readable genders)
    # are not marked by another quality
    quality = {f.quality for f in part.figures if f.quality} | {
        f.key for f in part.figures if f.key.endswith("_all") or f.key.startswith("readable_")}
    fig = Figure(part.figures[0].benchmark, "clean_share", "clean outputs", "% of outputs",
                 "higher", ", ".join(dict.fromkeys(f.run for f in part.figures)), source,
                 "100 × column clean_share of the system's headline run: outputs that "
                 "neither echo the prompt's instruction nor are in another language",
                 has_ci=True, interval=f"{int(round(100 * level))}% {WILSON} over outputs")
    readings = {}
    for row in table.itertuples():
        readings[(str(row.system), str(row.prompt))] = (num(row.clean_share), num(row.ok),
                                                        num(row.items))
    for system in part.systems:
        prompts = list(dict.fromkeys(c.prompt for (s, _), c in part.cells.items()
                                     if s == system and c.prompt))
        values = [readings[(system, p)] for p in prompts if (system, p) in readings]
        if not prompts:  # runs named by language (WinoMT, GRAPE): every run of the system
            values = [v for (s, _), v in readings.items() if s == system]
        if values:
            share, ok, items = min(values, key=lambda v: v[0])
            low = high = math.nan
            n = None
            if not math.isnan(ok) and not math.isnan(items) and items > 0:
                low, high = wilson(int(ok), int(items), level)
                n = int(items)
            part.cells[(system, fig.key)] = Cell(100 * share, 100 * low, 100 * high,
                                                 prompt=", ".join(prompts) or None, n=n)
    from dataclasses import replace

    part.figures = [f if f.key in quality else replace(f, qualities=(*f.qualities, fig.key))
                    for f in part.figures]
    part.figures.append(fig)
    return part


def reader_modules() -> list[str]:
    """Every reader's module (the scorecard job runs them all: its code fingerprint)."""
    return [b.scorecard.reader.partition(":")[0] for b in _PARTS]


def available(results: Path) -> list[str]:
    """Benchmarks whose tables are in the results folder."""
    return [b for b in LABELS if all((results / t).is_file() for t in TABLES[b])]
