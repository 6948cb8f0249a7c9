"""FairTranslate on the scorecard: its headline figures, read from its own tables."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from gendermt.analysis.stats import BOOTSTRAP
from gendermt.scorecard.figures import (
    Cell,
    Figure,
    Part,
    headline_rows,
    headline_runs,
    read_csv,
    run_label,
)
from gendermt.scorecard.gap import bootstrap_gap_ci, paired_differences


def read(results: Path, bootstrap: dict | None = None,
         score_records: Sequence[Mapping[str, Any]] | None = None,
         data: Sequence[str | Path] | None = None,
         headline: Mapping[str, str] | None = None,
         order: Sequence[str] | None = None) -> Part:
    """Male−inclusive and male−female gaps of each metric (BLEU, COMET when scored) in the
    baseline run: differences of by_gender.csv's means, with paired bootstrap CIs.
    ``score_records`` (per-item score files, as records: ``{system, prompt, path}``, COMET's
    file of all runs ``{path}``) and ``data`` (the data stage's one file, for example_id):
    default, what the results folder has. Each system's run: its ``headline`` prompt, else the
    first of ``order`` (the configured prompts) it ran (:func:`headline_runs`)."""
    source = "fairtranslate/tables/by_gender.csv"
    table = read_csv(results / source, ["metric", "system", "prompt", "gender", "mean"])
    runs = headline_runs(table, headline, order, "fairtranslate")
    run = run_label(runs)
    table = headline_rows(table, runs)
    settings = {**BOOTSTRAP, **(bootstrap or {})}
    part = Part(systems=list(dict.fromkeys(table["system"].astype(str))))
    per_item = _fairtranslate_items(results, score_records, data)
    if per_item is None:
        part.notes.append("FairTranslate: no per-item scores (fairtranslate/scores/, data."
                          "parquet) in the results folder, so the gaps have no CIs.")
    metrics = [m for m in ("bleu", "comet") if m in set(table["metric"])]
    # Quality beside the gaps: the mean over all items (the three gender means, equal
    # counts) of each metric the table has.
    for metric in [m for m in ("bleu", "chrf") if m in set(table["metric"])]:
        name = {"bleu": "BLEU", "chrf": "chrF"}[metric]
        fig = Figure("fairtranslate", f"{metric}_all", f"{name} (all)",
                     f"{name} points (sentence-level, 0–100)", "higher", run, source,
                     f"mean of the male, female and inclusive means of {metric} in "
                     f"by_gender.csv: the output's quality, beside the gaps")
        part.figures.append(fig)
        for system, rows in table[table["metric"] == metric].groupby("system", sort=False):
            means = rows.set_index("gender")["mean"]
            part.cells[(str(system), fig.key)] = Cell(float(means.mean()),
                                                      prompt=runs[str(system)])
    for metric in metrics:
        name = metric.upper()
        for other in ("inclusive", "female"):
            fig = Figure(
                "fairtranslate", f"{metric}_male_minus_{other}", f"{name} male−{other}",
                f"{name} points (sentence-level, 0–100)" if metric == "bleu"
                else "COMET points (as in by_gender.csv)", "closer to 0", run, source,
                f"mean({metric}, male) − mean({metric}, {other}) of by_gender.csv; "
                f"{int(settings['level'] * 100)}% CI: percentile bootstrap over examples of "
                f"the per-example difference (paired by example_id; "
                f"{settings['resamples']} resamples, seed {settings['seed']})", has_ci=True,
                interval=f"{int(round(settings['level'] * 100))}% percentile bootstrap over "
                         f"examples ({settings['resamples']} resamples, seed "
                         f"{settings['seed']}; gendermt.analysis.resample)",
                quality="bleu_all" if "bleu" in set(table["metric"]) else None)
            part.figures.append(fig)
            for system, rows in table[table["metric"] == metric].groupby("system", sort=False):
                means = rows.set_index("gender")["mean"]
                if "male" not in means or other not in means:
                    continue
                low = high = math.nan
                n = None
                if per_item is not None:
                    sub = per_item[(per_item["system"] == system)
                                   & (per_item["prompt"] == runs[str(system)])
                                   & (per_item["metric"] == metric)]
                    differences = paired_differences(sub, "male", other)
                    n = len(differences)
                    low, high = bootstrap_gap_ci(differences, settings["resamples"],
                                                 settings["seed"], settings["level"])
                part.cells[(str(system), fig.key)] = Cell(
                    float(means["male"] - means[other]), low, high, runs[str(system)], n=n)
    return part


def _fairtranslate_items(results: Path,
                         score_records: Sequence[Mapping[str, Any]] | None = None,
                         data: Sequence[str | Path] | None = None) -> pd.DataFrame | None:
    """Per-item scores with example_id and gender: the given score files (records, as
    :func:`gendermt.analysis.tables.collect_scores` takes them: the rule's), else every one
    under fairtranslate/scores/ (the command line, which reads a finished results folder:
    ``{system}/{prompt}.parquet`` by the workflow's layout, ``comet.parquet``)."""
    data_path = Path(data[0]) if data else results / "fairtranslate" / "data.parquet"
    scores_dir = results / "fairtranslate" / "scores"
    records = (list(score_records) if score_records is not None
               else [{"path": p} if p.parent == scores_dir else
                     {"system": p.parent.name, "prompt": p.name.split(".", 1)[0], "path": p}
                     for p in sorted(scores_dir.glob("**/*.parquet"))])
    if not data_path.is_file() or not records:
        return None
    from gendermt.analysis.tables import collect_scores

    frame = pd.read_parquet(data_path)
    scores = collect_scores(records, frame, ["example_id", "gender"])
    return scores.astype({"system": str, "prompt": str})
