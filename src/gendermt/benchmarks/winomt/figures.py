"""WinoMT figure: accuracy, ΔG and ΔS of every system, per target language.

Each bar carries its interval as an error bar where the benchmark's ``tables/intervals.csv``
is given; a run below its quality floor (too few readable genders, or outputs that are not
translations into the language) is grey and hatched and its panel's title says
"(low quality)"; oracles and baselines are labelled in the legend."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

from gendermt.benchmarks.winomt.tables import collect
from gendermt.report import figure_marks as marks
from gendermt.report.plots import save
from gendermt.scorecard.build import benchmark_floors

PANELS = (("acc", "accuracy (%)"), ("delta_g", "ΔG = F1 male − F1 female"),
          ("delta_s", "ΔS = acc pro − acc anti"))


def low_quality(frame: pd.DataFrame, floors: Mapping[str, float],
                low_runs: set[tuple[str, str]] | None = None) -> set[tuple[str, str]]:
    """The (system, language) runs below a floor: readable genders (100 − share_unknown)
    below ``readable`` (or ``readable_<lang>``), or named in ``low_runs`` (the clean-share
    check's)."""
    from gendermt.scorecard.build import floor_of

    out = set(low_runs or set())
    for row in frame.itertuples(index=False):
        floor = floor_of(floors, f"readable_{row.lang}")
        unknown = getattr(row, "share_unknown", np.nan)
        if floor is not None and unknown == unknown and 100 - float(unknown) < floor:
            out.add((str(row.system), str(row.lang)))
    return out


def compare_systems(frame, systems: Sequence[str], langs: Sequence[str],
                    intervals: pd.DataFrame | None = None,
                    kinds: Mapping[str, str] | None = None,
                    low: set[tuple[str, str]] | None = None):
    """Three panels (acc, ΔG, ΔS), bars per language (x) and system (hue), with their
    intervals (``intervals``: the benchmark's intervals table) and the runs in ``low``
    (system, language) grey and hatched."""
    sns.set_theme(style="whitegrid", context="paper")
    low = low or set()
    panels = [(k, label) for k, label in PANELS if frame[k].notna().any()]
    shown = [s for s in systems if s in set(frame["system"])] or list(dict.fromkeys(
        frame["system"]))
    colours = dict(zip(shown, sns.color_palette(n_colors=len(shown)), strict=True))
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 3.6), squeeze=False)
    width = 0.8 / max(len(shown), 1)
    x = np.arange(len(langs))
    cells = {(str(r.system), str(r.lang)): r for r in frame.itertuples(index=False)}
    for ax, (key, label) in zip(axes[0], panels, strict=True):
        for k, system in enumerate(shown):
            pos = x - 0.4 + width * (k + 0.5)
            values = [float(getattr(cells[(system, lang)], key))
                      if (system, lang) in cells else np.nan for lang in langs]
            bounds = [marks.interval(intervals, f"{key}_{lang}", system, lang)
                      for lang in langs]
            poor = [(system, lang) in low for lang in langs]
            for p, v, bound, bad in zip(pos, values, bounds, poor, strict=True):
                if np.isnan(v):
                    continue
                ax.bar(p, v, width, color=marks.LOW_COLOUR if bad else colours[system],
                       hatch=marks.LOW_HATCH if bad else None,
                       edgecolor=colours[system] if bad else None,
                       yerr=np.array(marks.error_bars([v], [bound])) if bound else None,
                       capsize=1.5, error_kw={"linewidth": 0.7})
        ax.set_xticks(x, list(langs))
        ax.set_xlabel("target language")
        ax.set_ylabel(label)
        ax.axhline(0, color="black", linewidth=0.6)
        bad = sorted(f"{s} {lang}" for s, lang in low
                     if (s, lang) in cells and not pd.isna(getattr(cells[(s, lang)], key)))
        lows = textwrap.fill(f"{marks.LOW_QUALITY}: {', '.join(bad)}", 48) if bad else ""
        ax.set_title(f"{label}\n{lows}" if lows else label, fontsize=9)
    from matplotlib.patches import Patch

    handles = [Patch(color=colours[s], label=marks.system_label(s, kinds)) for s in shown]
    if low:
        handles.append(Patch(facecolor=marks.LOW_COLOUR, hatch=marks.LOW_HATCH,
                             edgecolor="0.4", label=f"{marks.LOW_QUALITY}: below its floor"))
    axes[0][-1].legend(handles=handles, title="system", bbox_to_anchor=(1.02, 1),
                       loc="upper left", fontsize=7)
    note = ("\nerror bars: each figure's interval (tables/intervals.csv)"
            if intervals is not None else "")
    fig.suptitle("WinoMT: gender accuracy and bias per system and target language" + note,
                 fontsize=10)
    fig.tight_layout()
    return fig


def build_figures(summaries: Sequence[str | Path], png: str | Path, pdf: str | Path,
                  systems: Sequence[str], langs: Sequence[str],
                  intervals_csv: str | Path | None = None,
                  checks_csv: str | Path | None = None,
                  kinds: Mapping[str, str] | None = None,
                  quality_floors: Mapping[str, Any] | None = None) -> None:
    """Workflow stage: every summary (and, where given, ``tables/intervals.csv`` and
    ``tables/output_checks.csv``) → ``figures/systems.{png,pdf}``."""
    frame = collect(summaries, systems, langs)
    floors = benchmark_floors(quality_floors, "winomt")
    low = low_quality(frame, floors, marks.low_quality_runs(checks_csv, floors["clean_share"]))
    save(compare_systems(frame, systems, langs, marks.read_intervals(intervals_csv), kinds,
                         low), png, pdf)
