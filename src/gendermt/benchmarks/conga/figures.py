"""ConGA figure: how each system resolves ambiguous English entities, A→M against A→F."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from gendermt.benchmarks.conga.tables import annotated_runs, read_logs, run_label
from gendermt.report.plots import save

COLOURS = {"bias_a_to_m": "#4393c3", "bias_a_to_f": "#d6604d"}
LABELS = {"bias_a_to_m": "A→M", "bias_a_to_f": "A→F"}


def bias_counts(logs: pd.DataFrame, systems: Sequence[str], prompts: Sequence[str]
                ) -> pd.DataFrame:
    return pd.DataFrame([{"run": run_label(system, prompt, prompts), "items": len(part),
                          **{c: int(part[c].sum()) for c in COLOURS}}
                         for system, prompt, part in annotated_runs(logs, systems, prompts)])


def ambiguous_resolution(counts: pd.DataFrame):
    """Grouped bars: A→M and A→F counts per system; systems with no annotated output are
    marked on the axis instead of drawn as zeros."""
    fig, ax = plt.subplots(figsize=(max(4.0, 1.3 * len(counts) + 1.5), 3.4))
    x = np.arange(len(counts))
    width = 0.38
    for k, (cat, colour) in enumerate(COLOURS.items()):
        values = counts[cat].where(counts["items"] > 0)
        bars = ax.bar(x + (k - 0.5) * width, values.fillna(0), width, color=colour,
                      label=LABELS[cat])
        ax.bar_label(bars, labels=[("" if pd.isna(v) else f"{int(v)}") for v in values],
                     fontsize=7)
    ax.set_xticks(x, [f"{r}\n(no annotated output)" if n == 0 else f"{r}\n({n} sentences)"
                      for r, n in zip(counts["run"], counts["items"], strict=True)],
                  fontsize=7)
    ax.set_ylabel("ambiguous entities realised")
    ax.set_title("ConGA: ambiguous English entities rendered masculine vs feminine",
                 fontsize=9)
    ax.legend(frameon=False, fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    return fig


def build_figures(sentence_files: Sequence[str | Path], png: str | Path, pdf: str | Path,
                  systems: Sequence[str], prompts: Sequence[str]) -> None:
    """Workflow stage: per-sentence logs → ``figures/ambiguous_resolution.{png,pdf}``."""
    counts = bias_counts(read_logs(sentence_files), systems, prompts)
    save(ambiguous_resolution(counts), png, pdf)
