"""Neo-GATE's Table 4 (§4.1) from the generic scoring rules' files: sacrebleu's corpus BLEU,
chrF, TER (each run's ``scores/{system}/{prompt}.json``), the BERTScore and COMET jobs'
per-segment files; beside the paper's published numbers. The data and inputs stages are in
:mod:`.flores`."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from gendermt.data.io import write_table, write_text

METRICS = ("bleu", "chrf", "ter", "bertscore", "comet")
HEADERS = {"bleu": "BLEU", "chrf": "chrF", "ter": "TER ↓", "bertscore": "BERTSc.",
           "comet": "COMET"}
# The paper's Table 4 (FLORES-101 devtest, en→it).
PAPER_TABLE4 = {
    "opus-mt": (27.53, 57.61, 58.95, 87.42, 82.68),
    "GPT-4": (32.34, 61.11, 54.87, 88.76, 87.05),
    "Tower": (30.88, 59.41, 56.96, 88.17, 86.21),
    "Mixtral": (29.63, 58.68, 59.35, 87.81, 86.11),
    "LLama 2": (26.28, 55.92, 61.98, 87.02, 84.23),
}


def quality_table(runs: Sequence[Mapping[str, Any]], comet: str | Path | None = None,
                  bertscore: str | Path | None = None) -> pd.DataFrame:
    """Table 4 (long): one row per run (``runs``: ``{system, prompt, path}`` records of the
    score job's ``scores/{system}/{prompt}.json``) with ``bleu``, ``chrf``, ``ter`` (corpus
    scores of the generic score job), ``bertscore`` (mean F1 × 100) and ``comet`` (mean
    segment score, × 100 as the paper prints it), ``n`` and the metric signatures; a metric
    not configured is NaN."""
    rows = []
    neural = {}
    for name, path in (("comet", comet), ("bertscore", bertscore)):
        if path:
            frame = pd.read_parquet(path)
            scale = 1.0 if "scale:x100" in str(frame["signature"].iloc[0]) else 100.0
            for (system, prompt), part in frame.groupby(["system", "prompt"], sort=False):
                neural[(system, prompt, name)] = (float(part["score"].mean()) * scale,
                                                  str(part["signature"].iloc[0]))
    for run in runs:
        system, prompt = run["system"], run["prompt"]
        summary = json.loads(Path(run["path"]).read_text(encoding="utf-8"))
        summary = summary.get("metrics", summary)  # the score job's {"metrics": {...}}
        row: dict[str, Any] = {"system": system, "prompt": prompt}
        for metric in METRICS:
            if metric in summary:
                row[metric] = float(summary[metric]["corpus"]["all"])
                row[f"{metric}_signature"] = summary[metric]["signature"]
                row["n"] = int(summary[metric]["n"]["all"])
            elif (system, prompt, metric) in neural:
                row[metric], row[f"{metric}_signature"] = neural[(system, prompt, metric)]
            else:
                row[metric], row[f"{metric}_signature"] = float("nan"), ""
        rows.append(row)
    columns = ["system", "prompt", *METRICS, "n", *(f"{m}_signature" for m in METRICS)]
    return pd.DataFrame(rows).reindex(columns=columns)


def _layout(frame: pd.DataFrame) -> pd.DataFrame:
    shown = frame[["system", "prompt", *METRICS, "n"]].rename(columns=HEADERS)
    return shown.astype(object).where(shown.notna(), None)


def build_table(runs: Sequence[Mapping[str, Any]], comet: str | Path | None,
                bertscore: str | Path | None, csv_out: str | Path, md_out: str | Path) -> None:
    """Workflow stage: the runs' score summaries (+ COMET, BERTScore files) →
    ``tables/flores.csv`` (full precision, signatures) and ``flores.md`` (the paper's
    layout, with its published Table 4 below for comparison; "-": metric not configured)."""
    table = quality_table(runs, comet, bertscore)
    write_table(table, csv_out)
    paper = pd.DataFrame([{"system": s, **dict(zip((HEADERS[m] for m in METRICS), v,
                                                     strict=True))}
                          for s, v in PAPER_TABLE4.items()])
    write_text(md_out, "# Translation quality on FLORES en→it (laid out as Neo-GATE's "
               "Table 4)\n\n"
               "BLEU, chrF, TER: sacrebleu corpus scores; BERTScore: mean F1 × 100; COMET: mean "
               "segment score × 100; '-': metric not configured. Signatures in flores.csv.\n\n"
               + _layout(table).to_markdown(index=False, floatfmt=".2f", missingval="-")
               + "\n\nThe paper's Table 4 (FLORES-101 devtest), for comparison:\n\n"
               + paper.to_markdown(index=False, floatfmt=".2f") + "\n")
