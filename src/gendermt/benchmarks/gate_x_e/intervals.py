"""GATE X-E's headline figure with its interval and paired tests
(gendermt.analysis.intervals): exact-match rewriting accuracy over every Overall cell of
Table 2 (all languages, the relaxed Negative → Neut cell left out), over instances.

Each resample recomputes it as :func:`.metric.accuracy_long` counts it, from per-instance
counts: each tuple of a gendered instance counts once (correct: it matches); a Negative
instance counts once for its gendered rewrites (correct: all of them match) and once per
neutral rewrite.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import pandas as pd

from gendermt.analysis.intervals import Group, Spec, by_units, ratio, write_intervals

UNIT = "instance"
COUNTS = ("correct", "n")
FIGURE = Spec("accuracy", "higher", ratio(0, 1), proportion=(0, 1))


def instance_counts(scored: pd.DataFrame) -> pd.DataFrame:
    """One row per instance (``instance_id``) with ``correct`` and ``n``."""
    negative = scored["original_gender"] == "negative"
    gendered_negative = negative & (scored["requested_gender"] != "neutral")
    plain = scored[~gendered_negative]
    parts = [pd.DataFrame({"instance_id": plain["instance_id"].astype(str),
                           "correct": plain["match"].astype(float), "n": 1.0})]
    both = scored[gendered_negative].groupby("instance_id")["match"].all()
    parts.append(pd.DataFrame({"instance_id": both.index.astype(str),
                               "correct": both.to_numpy(dtype=float), "n": 1.0}))
    return pd.concat(parts).groupby("instance_id", sort=True)[list(COUNTS)].sum().reset_index()


def groups(runs: Sequence[Mapping[str, str]]) -> list[Group]:
    """``runs``: records ``{system, prompt, path}`` of the scored rewrites
    (``rewrites/{system}/{prompt}.parquet``) → the groups of runs scored on the same
    instances."""
    frames = {(str(r["system"]), str(r["prompt"])): instance_counts(pd.read_parquet(r["path"]))
              for r in runs}
    out = []
    for members in by_units(frames, "instance_id"):
        group = Group(UNIT, [FIGURE])
        for run, frame in members.items():
            group.columns[run] = frame[list(COUNTS)].to_numpy(dtype=float)
        out.append(group)
    return out


def build_intervals(runs: Sequence[Mapping[str, str]], outputs: Mapping[str, str | Path],
                    bootstrap: Mapping | None = None) -> None:
    """Workflow stage: every run's scored rewrites → ``tables/intervals.csv`` and
    ``tables/pairs.csv``."""
    write_intervals(groups(runs), bootstrap, outputs)
