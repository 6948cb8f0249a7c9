"""Why each output ended, counted per run: truncation made visible.

A translation record's ``finish_reason`` (written by :mod:`gendermt.translation.runner`) is ``eos``
or ``stop`` (the model ended its answer), ``length`` (cut off at the token budget: the
output is incomplete), ``n/a`` (a system that does not generate: a lookup, rules, stored
outputs) or ``unknown`` (taken from the request cache, which keeps only the text; or a
file written before finish reasons were recorded).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from gendermt.data.io import read_jsonl, write_table

REASONS = ("eos", "stop", "length", "n/a", "unknown")


def finish_counts(runs: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """One row per run (``{system, prompt, path}`` records of its translation file): items,
    the count of each finish reason, and the truncated share (``length`` / items whose reason
    is known; NaN when none is)."""
    rows = []
    for run in runs:
        system, prompt = run["system"], run["prompt"]
        reasons = [r.get("finish_reason", "unknown") for r in read_jsonl(run["path"])]
        row = {"system": system, "prompt": prompt, "items": len(reasons)}
        for reason in (*REASONS, *sorted(set(reasons) - set(REASONS))):
            row[reason] = reasons.count(reason)
        # of the outputs whose finish reason is known (not those served from the cache)
        known = len(reasons) - row["unknown"]
        row["truncated_share"] = row["length"] / known if known else float("nan")
        rows.append(row)
    columns = ["system", "prompt", "items", *REASONS, "truncated_share"]
    frame = pd.DataFrame(rows)
    if frame.empty:
        return pd.DataFrame(columns=columns)
    extra = [c for c in frame.columns if c not in columns]
    return frame[[*columns[:-1], *extra, "truncated_share"]].fillna({c: 0 for c in extra})


def write_finish_table(runs: Sequence[Mapping[str, Any]], csv: str | Path,
                       md: str | Path) -> None:
    """Workflow stage: a benchmark's runs (records of their translation files) →
    ``tables/finish_reasons.csv`` + .md."""
    write_table(finish_counts(runs), csv, md, floatfmt=".3f")
