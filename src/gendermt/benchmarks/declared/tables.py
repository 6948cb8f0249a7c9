"""A declared benchmark's tables from every run's summary (``evaluate.score_run``) and, where
the benchmark file asks for COMET, the workflow's COMET scores (``scores/comet.parquet``).

Runs are records ``{"system", "prompt", "summary"}``; nothing is parsed out of paths.
``accuracy``: per run × language, the pair accuracy, each gender's, the gap, the correct-word
rates, with the metric's signature. ``quality``: per run × language × gender, each metric
against the own and the other gender's reference, with its signature. ``summary``: per run ×
language the headline figures (the scorecard's source): accuracies and gap, each metric per
gender and its gap.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd


def _summary(run: Mapping[str, Any]) -> dict[str, Any]:
    return json.loads(Path(run["summary"]).read_text(encoding="utf-8"))


def accuracy_columns(genders: Sequence[str]) -> list[str]:
    return ["system", "prompt", "lang", "accuracy", *(f"accuracy_{g}" for g in genders),
            "accuracy_gap", "correct_word_rate", *(f"correct_word_rate_{g}" for g in genders),
            "n", "signature"]


def accuracy_table(runs: Sequence[Mapping[str, Any]], genders: Sequence[str]) -> pd.DataFrame:
    import pandas as pd

    rows = []
    for run in runs:
        summary = _summary(run)
        rows += [{"system": run["system"], "prompt": run.get("prompt", ""), **row,
                  "signature": summary.get("accuracy_signature", "")}
                 for row in summary["accuracy"]]
    return pd.DataFrame(rows, columns=accuracy_columns(genders))


QUALITY_COLUMNS = ["system", "prompt", "lang", "gender", "metric", "reference", "score", "n",
                   "signature"]


def comet_rows(comet: str | Path, data: str | Path) -> list[dict]:
    """Mean COMET (×100) per run × language × gender (and ``all``) against the segment's own
    reference (the workflow's COMET job scores each segment against ``reference``)."""
    import pandas as pd

    scores = pd.read_parquet(comet).merge(
        pd.read_parquet(data, columns=["item_id", "gender", "tgt_lang"]), on="item_id")
    rows = []
    for (system, prompt, lang), part in scores.groupby(["system", "prompt", "tgt_lang"],
                                                       sort=True):
        groups = [("all", part)] + [(g, p) for g, p in part.groupby("gender", sort=False)]
        for gender, sub in groups:
            rows.append({"system": system, "prompt": prompt, "lang": lang, "gender": gender,
                         "metric": "comet", "reference": "own", "score": float(sub["score"].mean()),
                         "n": len(sub), "signature": str(sub["signature"].iloc[0])})
    return rows


def quality_table(runs: Sequence[Mapping[str, Any]], comet: str | Path | None = None,
                  data: str | Path | None = None) -> pd.DataFrame:
    import pandas as pd

    rows = []
    for run in runs:
        rows += [{"system": run["system"], "prompt": run.get("prompt", ""), **row}
                 for row in _summary(run)["quality"]]
    if comet is not None and data is not None:
        wanted = {(r["system"], r.get("prompt", "")) for r in runs}
        rows += [r for r in comet_rows(comet, data) if (r["system"], r["prompt"]) in wanted]
    return pd.DataFrame(rows, columns=QUALITY_COLUMNS)


def summary_table(accuracy: pd.DataFrame, quality: pd.DataFrame, genders: Sequence[str],
                  metrics: Sequence[str]) -> pd.DataFrame:
    """One row per run × language: the accuracies and their gap, then each metric against the
    own reference over all segments, per gender and the gap (first gender − second)."""
    import pandas as pd

    first, second = genders
    rows: dict[tuple, dict[str, Any]] = {}
    for rec in accuracy.to_dict("records"):
        rows.setdefault((rec["system"], rec["prompt"], rec["lang"]), {}).update(
            {k: rec[k] for k in ("accuracy", *(f"accuracy_{g}" for g in genders),
                                 "accuracy_gap", "correct_word_rate", "n")})
    own = quality[quality["reference"] == "own"]
    for rec in own.to_dict("records"):
        row = rows.setdefault((rec["system"], rec["prompt"], rec["lang"]), {})
        suffix = "" if rec["gender"] == "all" else f"_{rec['gender']}"
        row[f"{rec['metric']}{suffix}"] = rec["score"]
    quality_metrics = [m for m in metrics if m != "gendered_word_accuracy"]
    for row in rows.values():
        for metric in quality_metrics:
            a, b = row.get(f"{metric}_{first}"), row.get(f"{metric}_{second}")
            row[f"{metric}_gap"] = None if a is None or b is None else a - b
    columns = ["system", "prompt", "lang"]
    if "gendered_word_accuracy" in metrics:
        columns += ["accuracy", *(f"accuracy_{g}" for g in genders), "accuracy_gap",
                    "correct_word_rate"]
    for metric in quality_metrics:
        columns += [metric, *(f"{metric}_{g}" for g in genders), f"{metric}_gap"]
    columns.append("n")
    frame = pd.DataFrame([{"system": s, "prompt": p, "lang": lang, **row}
                          for (s, p, lang), row in rows.items()])
    return frame.reindex(columns=columns)


def build_tables(runs: Sequence[Mapping[str, Any]], genders: Sequence[str],
                 metrics: Sequence[str], outputs: Mapping[str, str],
                 comet: str | Path | None = None, data: str | Path | None = None) -> None:
    """Workflow stage: every run's summary (and COMET's scores) → ``tables/accuracy``,
    ``quality`` and ``summary`` (``.csv``, ``.md``)."""
    from gendermt.data.io import write_table

    runs = [dict(r) for r in runs]
    accuracy = accuracy_table(runs, genders)
    quality = quality_table(runs, comet, data)
    write_table(accuracy, outputs["accuracy"], outputs["accuracy_md"], floatfmt=".3f")
    write_table(quality, outputs["quality"], outputs["quality_md"])
    write_table(summary_table(accuracy, quality, genders, metrics), outputs["summary"],
                outputs["summary_md"], floatfmt=".3f")
