"""What every benchmark's main figure marks, so that it cannot flatter (issue 48): the
headline figures' intervals as error bars (the benchmark's ``tables/intervals.csv``, where its
intervals rule wrote one: an optional input, the figure draws without it), a run below its
quality floor greyed, hatched and titled "(low quality)", and oracles and baselines labelled
as such wherever a system is named."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

LOW_QUALITY = "(low quality)"
#: A low-quality run's bars: grey, hatched (never a colour that reads as a result).
LOW_COLOUR = "#c8c8c8"
LOW_HATCH = "///"
KIND_LABELS = {"oracle": " (oracle)", "baseline": " (baseline)"}


def system_label(system: str, kinds: Mapping[str, str] | None) -> str:
    """``system (oracle)`` / ``system (baseline)``; a model's name as it is."""
    return str(system) + KIND_LABELS.get((kinds or {}).get(str(system), "model"), "")


def read_intervals(path: str | Path | None) -> pd.DataFrame | None:
    """A benchmark's ``tables/intervals.csv`` (columns figure, system, value, ci_low,
    ci_high, n, ...; ``prompt`` where the benchmark has prompts), or None where there is
    none (no path given, or not written)."""
    import pandas as pd

    if not path or not Path(path).is_file():
        return None
    table = pd.read_csv(path, dtype={"figure": str, "system": str}, keep_default_na=True)
    missing = {"figure", "system", "ci_low", "ci_high"} - set(table.columns)
    if missing:
        from gendermt.core.errors import DatasetError

        raise DatasetError(path, f"has no column(s) {', '.join(sorted(missing))}")
    if "prompt" in table.columns:
        table["prompt"] = table["prompt"].astype(str)
    return table


def interval(table: pd.DataFrame | None, figure: str, system: str,
             prompt: str | None = None) -> tuple[float, float, int | None] | None:
    """(low, high, n) of a figure of a system (and run, where the table names prompts), in
    the table's unit; None where the table has none."""
    if table is None:
        return None
    rows = table[(table["figure"] == figure) & (table["system"] == str(system))]
    if prompt is not None and "prompt" in rows.columns and (rows["prompt"] == str(prompt)).any():
        rows = rows[rows["prompt"] == str(prompt)]
    if rows.empty:
        return None
    row = rows.iloc[0]
    low, high = float(row["ci_low"]), float(row["ci_high"])
    if math.isnan(low) or math.isnan(high):
        return None
    n = row.get("n")
    return low, high, (None if n is None or n != n else int(n))


def error_bars(values: Iterable[float], bounds: Iterable[tuple[float, float] | None],
               scale: float = 1.0) -> list[list[float]]:
    """``yerr`` for matplotlib's ``bar``: the distances from each value to its interval's
    ends (0 where there is none), the bounds multiplied by ``scale`` (e.g. 100 for a % axis
    of a 0–1 table, or 0.01 the other way)."""
    lower, upper = [], []
    for value, bound in zip(values, bounds, strict=True):
        if bound is None or value is None or math.isnan(value):
            lower.append(0.0)
            upper.append(0.0)
            continue
        low, high = bound[0] * scale, bound[1] * scale
        lower.append(max(value - low, 0.0))
        upper.append(max(high - value, 0.0))
    return [lower, upper]


def low_quality_runs(checks: str | Path | None, floor: float,
                     run: tuple[str, str] = ("system", "prompt")) -> set[tuple[str, str]]:
    """The runs (system, prompt) of a benchmark's ``tables/output_checks.csv`` whose clean
    share is below ``floor`` (%): echoes, untranslated or wrong-language outputs."""
    if not checks or not Path(checks).is_file():
        return set()
    from gendermt.scoring.output_quality import read_checks

    table = read_checks(checks)
    return {(str(s), str(p)) for s, p, v in zip(table["system"], table["prompt"],
                                                table["clean_share"], strict=True)
            if v == v and 100 * float(v) < floor}



def title(text: str, system: str, kinds: Mapping[str, str] | None, low: bool) -> str:
    """A panel's title naming a system: its kind and, below its floor, ``(low quality)``."""
    label = text.replace(str(system), system_label(system, kinds), 1)
    return f"{label} {LOW_QUALITY}" if low else label


def headline_panel(ax, runs: list[tuple[str, str]], intervals: pd.DataFrame | None,
                   figure: str, label: str, kinds: Mapping[str, str] | None = None,
                   low: set[tuple[str, str]] | None = None,
                   values: Mapping[tuple[str, str], float] | None = None) -> None:
    """One horizontal bar per run (system, prompt) of a benchmark's headline figure with its
    interval as an error bar (``intervals``: the benchmark's intervals table, in its unit;
    ``values``: the runs' values where the table has none), n beside it, oracles and
    baselines labelled, a run below its floor grey, hatched and "(low quality)"."""
    low = low or set()
    names, shown, bounds, ns, poor = [], [], [], [], []
    for system, prompt in runs:
        found = interval(intervals, figure, system, prompt)
        value = float("nan")
        if intervals is not None:
            rows = intervals[(intervals["figure"] == figure)
                             & (intervals["system"] == str(system))]
            if "prompt" in rows.columns:
                rows = rows[rows["prompt"] == str(prompt)]
            if len(rows) and "value" in rows.columns:
                value = float(rows["value"].iloc[0])
        if value != value and values is not None:
            value = float(values.get((system, prompt), float("nan")))
        bad = (str(system), str(prompt)) in low
        names.append(title(f"{system} · {prompt}", system, kinds, bad))
        shown.append(value)
        bounds.append(found[:2] if found else None)
        ns.append(found[2] if found else None)
        poor.append(bad)
    y = list(range(len(runs)))
    colours = [LOW_COLOUR if bad else ("#9e9e9e" if (kinds or {}).get(s) == "oracle"
                                       else "#4c72b0") for (s, _), bad in zip(runs, poor,
                                                                             strict=True)]
    xerr = error_bars(shown, bounds) if any(bounds) else None
    ax.barh(y, [0 if v != v else v for v in shown], color=colours,
            hatch=[LOW_HATCH if bad else "" for bad in poor], edgecolor="white",
            xerr=xerr, capsize=3, error_kw={"linewidth": 0.9})
    for i, (value, bound, n) in enumerate(zip(shown, bounds, ns, strict=True)):
        text = "n/a" if value != value else f"{value:.1f}"
        if bound:
            text += f" [{bound[0]:.1f}, {bound[1]:.1f}]"
        if n:
            text += f", n = {n:,}"
        right = (bound[1] if bound else value) if value == value else 0
        ax.text(right + 1, i, text, va="center", fontsize=7)
    ax.set_yticks(y, names, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlim(0, 125)
    ax.set_xlabel(label, fontsize=8)
    level = ""
    if intervals is not None and "level" in intervals.columns and intervals["level"].notna().any():
        level = f"{100 * float(intervals['level'].dropna().iloc[0]):g} % "
    ax.set_title(f"headline: {label}" + (f" with its {level}interval" if xerr else "")
                 + " (oracles in grey)", fontsize=8, loc="left")
