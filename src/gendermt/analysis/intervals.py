"""A benchmark's ``tables/intervals.csv`` and ``tables/pairs.csv``: each headline figure of
each run with its interval, and the paired test of every two runs scored on the same units.

A benchmark describes its figures as :class:`Spec` (the scorecard key, its direction and its
statistic of summed per-unit counts, :mod:`.resample`) and its runs as :class:`Group` (the
runs scored on one set of units, each run's per-unit counts). ``intervals.csv``: ``figure,
system, prompt, value, ci_low, ci_high, n, unit, method, resamples, seed, level,
signature``; ``pairs.csv``: ``figure, system_a, prompt_a, system_b, prompt_b, difference,
ci_low, ci_high, p, n, unit, signature`` where ``difference`` is goodness(a) − goodness(b)
(``higher``: x; ``lower``: −x; ``closer to T``: −|x − T|) and ``p`` is two-sided and
unadjusted (the scorecard Holm-corrects within a figure's contenders).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING

from gendermt.analysis.resample import (
    BOOTSTRAP_METHOD,
    MAX_CELLS,
    NEWCOMBE,
    WILSON,
    Settings,
    Statistic,
    newcombe,
    paired_test,
    percentile_interval,
    point,
    resampled,
    signature,
    wilson,
)

if TYPE_CHECKING:  # imported where used: the workflow imports this module to plan
    import numpy as np
    import pandas as pd

INTERVAL_COLUMNS = ["figure", "system", "prompt", "value", "ci_low", "ci_high", "n", "unit",
                    "method", "resamples", "seed", "level", "signature"]
PAIR_COLUMNS = ["figure", "system_a", "prompt_a", "system_b", "prompt_b", "difference",
                "ci_low", "ci_high", "p", "n", "unit", "signature"]


@dataclass(frozen=True)
class Spec:
    """One headline figure: its scorecard key, direction and statistic of the summed
    per-unit counts. ``proportion`` (successes, trials: column indices) makes it a proportion
    (``scale`` × successes / trials) whose interval is Wilson's below ``small_n`` units;
    ``difference`` (successes a, trials a, successes b, trials b) a difference of two
    independent proportions (Newcombe's there)."""
    figure: str
    better: str
    statistic: Statistic
    proportion: tuple[int, int] | None = None
    difference: tuple[int, int, int, int] | None = None
    scale: float = 100.0


@dataclass
class Group:
    """Runs scored on the same units (in the same order): ``columns`` maps (system, prompt)
    to its per-unit counts ``(units, m)``; ``values`` (optional) the figure values as the
    benchmark's summary table computes them, where they differ from the statistic on the
    sample (e.g. rounded as an original scorer rounds)."""
    unit: str
    specs: Sequence[Spec]
    columns: dict[tuple[str, str], np.ndarray] = field(default_factory=dict)
    values: dict[tuple[str, str, str], float] = field(default_factory=dict)


def _small_interval(spec: Spec, sums: np.ndarray, n: int,
                    settings: Settings) -> tuple[float, float, str] | None:
    if n >= settings.small_n:
        return None
    if spec.proportion is not None:
        s, t = (int(round(sums[i])) for i in spec.proportion)
        low, high = wilson(s, t, settings.level)
        return spec.scale * low, spec.scale * high, WILSON
    if spec.difference is not None:
        sa, ta, sb, tb = (int(round(sums[i])) for i in spec.difference)
        low, high = newcombe(sa, ta, sb, tb, settings.level)
        return spec.scale * low, spec.scale * high, NEWCOMBE
    return None


def group_tables(group: Group, settings: Settings,
                 max_cells: int = MAX_CELLS) -> tuple[list[dict], list[dict]]:
    """The intervals and pairs rows of one group of runs."""
    runs = list(group.columns)
    if not runs:
        return [], []
    keys = {run: f"{run[0]}\x00{run[1]}" for run in runs}
    statistics = {spec.figure: spec.statistic for spec in group.specs}
    boot = resampled({keys[r]: group.columns[r] for r in runs}, statistics, settings,
                     max_cells)
    n = int(next(iter(group.columns.values())).shape[0])
    sig = signature(group.unit, settings)
    intervals, pairs = [], []
    values: dict[tuple[str, tuple[str, str]], float] = {}
    for spec in group.specs:
        for run in runs:
            counts = group.columns[run]
            value = group.values.get((spec.figure, *run), point(counts, spec.statistic))
            values[(spec.figure, run)] = value
            small = _small_interval(spec, counts.sum(axis=0), n, settings)
            if small is not None:
                low, high, method = small
            else:
                low, high = percentile_interval(boot[(spec.figure, keys[run])], settings.level)
                method = BOOTSTRAP_METHOD
            intervals.append({
                "figure": spec.figure, "system": run[0], "prompt": run[1], "value": value,
                "ci_low": low, "ci_high": high, "n": n, "unit": group.unit, "method": method,
                "resamples": settings.resamples, "seed": settings.seed,
                "level": settings.level,
                "signature": sig if method == BOOTSTRAP_METHOD
                else signature(group.unit, settings, method)})
        for a, b in combinations(runs, 2):
            result = paired_test(values[(spec.figure, a)], values[(spec.figure, b)],
                                 boot[(spec.figure, keys[a])], boot[(spec.figure, keys[b])],
                                 spec.better, settings.level)
            pairs.append({"figure": spec.figure, "system_a": a[0], "prompt_a": a[1],
                          "system_b": b[0], "prompt_b": b[1],
                          "difference": result.difference, "ci_low": result.ci_low,
                          "ci_high": result.ci_high, "p": result.p, "n": n,
                          "unit": group.unit, "signature": sig})
    return intervals, pairs


def interval_frames(groups: Sequence[Group], settings: Settings,
                    max_cells: int = MAX_CELLS) -> tuple[pd.DataFrame, pd.DataFrame]:
    """intervals.csv and pairs.csv of every group."""
    import pandas as pd

    intervals, pairs = [], []
    for group in groups:
        i, p = group_tables(group, settings, max_cells)
        intervals += i
        pairs += p
    return (pd.DataFrame(intervals, columns=INTERVAL_COLUMNS),
            pd.DataFrame(pairs, columns=PAIR_COLUMNS))


def run_rows(figure: str, better: str, values: Mapping[tuple[str, str], float],
             boot: Mapping[tuple[str, str], np.ndarray], n: int, unit: str,
             settings: Settings, method: str = BOOTSTRAP_METHOD
             ) -> tuple[list[dict], list[dict]]:
    """The intervals and pairs rows of one figure from each run's value and its bootstrap
    statistics (paired: drawn from the same resampled units), for a figure that is not a
    :class:`Spec` of one :class:`Group` (e.g. a mean over strata)."""
    sig = signature(unit, settings, method)
    intervals = []
    for run, value in values.items():
        low, high = percentile_interval(boot[run], settings.level)
        intervals.append({"figure": figure, "system": run[0], "prompt": run[1],
                          "value": value, "ci_low": low, "ci_high": high, "n": n,
                          "unit": unit, "method": method, "resamples": settings.resamples,
                          "seed": settings.seed, "level": settings.level, "signature": sig})
    pairs = []
    for a, b in combinations(list(values), 2):
        result = paired_test(values[a], values[b], boot[a], boot[b], better, settings.level)
        pairs.append({"figure": figure, "system_a": a[0], "prompt_a": a[1],
                      "system_b": b[0], "prompt_b": b[1], "difference": result.difference,
                      "ci_low": result.ci_low, "ci_high": result.ci_high, "p": result.p,
                      "n": n, "unit": unit, "signature": sig})
    return intervals, pairs


def write_intervals(groups: Sequence[Group], bootstrap: Mapping | None,
                    outputs: Mapping[str, str | Path],
                    extra: tuple[list[dict], list[dict]] = ([], [])) -> None:
    """Write ``outputs["intervals"]`` and ``outputs["pairs"]`` (CSV; Markdown beside each
    where ``intervals_md`` / ``pairs_md`` are given); ``extra``: rows of figures outside the
    groups (:func:`run_rows`)."""
    import pandas as pd

    from gendermt.data.io import write_table

    intervals, pairs = interval_frames(groups, Settings.of(bootstrap))
    if extra[0]:
        intervals = pd.concat([intervals, pd.DataFrame(extra[0], columns=INTERVAL_COLUMNS)],
                              ignore_index=True)
    if extra[1]:
        pairs = pd.concat([pairs, pd.DataFrame(extra[1], columns=PAIR_COLUMNS)],
                          ignore_index=True)
    write_table(intervals, outputs["intervals"], outputs.get("intervals_md"),
                md_without=["signature"])
    write_table(pairs, outputs["pairs"], outputs.get("pairs_md"), md_without=["signature"])


def by_units(runs: Mapping[tuple[str, str], pd.DataFrame], unit_column: str
             ) -> list[dict[tuple[str, str], pd.DataFrame]]:
    """Runs split into groups scored on the same units (the same set of ``unit_column``
    values), each run's frame sorted by unit so that rows line up across the group."""
    groups: dict[tuple, dict[tuple[str, str], pd.DataFrame]] = {}
    for run, frame in runs.items():
        frame = frame.sort_values(unit_column, kind="stable").reset_index(drop=True)
        groups.setdefault(tuple(frame[unit_column]), {})[run] = frame
    return list(groups.values())


def ratio(successes: int, trials: int, scale: float = 100.0) -> Statistic:
    """``scale × Σ successes / Σ trials`` (column indices)."""
    def stat(sums: np.ndarray) -> np.ndarray:
        return scale * sums[:, successes] / sums[:, trials]
    return stat
