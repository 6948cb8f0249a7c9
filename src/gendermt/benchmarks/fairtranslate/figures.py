"""FairTranslate figures: mean score by gender for every system and prompt.

Computed on the rows the authors' ``clean_outlier`` filter keeps when it is on (the title
says how many); metrics under their real names (sacreBLEU, NLTK BLEU-m4, chrF, COMET);
genders in the one gender palette (:data:`gendermt.benchmarks.fairtranslate.GENDER_COLOURS`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd
import seaborn as sns

from gendermt.analysis.tables import collect_scores
from gendermt.benchmarks.fairtranslate import GENDER_COLOURS, GENDERS, outliers
from gendermt.benchmarks.fairtranslate.paper_tables import metric_label
from gendermt.report.plots import save

PALETTE = GENDER_COLOURS


def score_by_gender(scores: pd.DataFrame, systems: Sequence[str], prompts: Sequence[str],
                    metrics: Sequence[str], rows_note: str = ""):
    """Bars: mean sentence score per prompt and gender (95% bootstrap CI), a panel per
    system (columns) and metric (rows)."""
    sns.set_theme(style="whitegrid", context="paper")
    scores = scores.assign(metric=scores["metric"].astype(str).map(metric_label))
    metrics = [metric_label(m) for m in metrics]
    grid = sns.catplot(
        data=scores, kind="bar", x="prompt", y="score", hue="gender", col="system",
        row="metric", order=list(prompts), hue_order=list(GENDERS), col_order=list(systems),
        row_order=list(metrics), palette=PALETTE, errorbar=("ci", 95), n_boot=1000, seed=0,
        height=2.6, aspect=1.15, sharey="row", legend_out=True)
    grid.set_titles("{col_name} · {row_name}")
    grid.set_axis_labels("", "mean sentence score (0–100)")
    for ax in grid.axes.flat:
        ax.tick_params(axis="x", rotation=30)
    title = "FairTranslate en→fr: score by gender of the reference"
    grid.figure.suptitle(f"{title}\n{rows_note}" if rows_note else title, y=1.04,
                         fontsize=9)
    return grid.figure


def build_figures(data_path: str | Path, score_records: Sequence[Mapping[str, Any]],
                  png: str | Path, pdf: str | Path, systems: Sequence[str],
                  prompts: Sequence[str], metrics: Sequence[str],
                  clean_outlier: dict | None = None) -> None:
    """Workflow stage: every score file (records, as :func:`collect_scores` takes them) →
    ``figures/score_by_gender.{png,pdf}``."""
    data = pd.read_parquet(data_path, columns=["item_id", "gender"])
    scores, kept = outliers.apply(collect_scores(score_records, data, ["gender"]),
                                  clean_outlier)
    save(score_by_gender(scores, systems, prompts, metrics, outliers.note(kept)), png, pdf)
