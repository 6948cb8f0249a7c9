"""Bootstrap confidence intervals of a gender gap, paired by example.

FairTranslate has every example in three gender variants (``example_id`` shared), so the gap
``score(a) − score(b)`` is a per-example difference; resampling examples (not sentences)
keeps the pairing, as the paper's repeated-measures design does. The bootstrap is the shared
one (gendermt.analysis.resample): the same generator and draws as before, in chunks, so the
same intervals up to the last bits of the sums; every system of a run on the same examples
gets the same resampled examples (same seed, same number of examples), so the systems' gaps
are resampled in pairs.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from gendermt.analysis.resample import Settings, bootstrap_mean_interval


def paired_differences(scores: pd.DataFrame, a: str, b: str) -> np.ndarray:
    """Per-example ``score(a) − score(b)`` from a frame with ``example_id, gender, score``;
    examples lacking either variant (or its score) are left out."""
    wide = scores.pivot_table(index="example_id", columns="gender", values="score",
                              aggfunc="mean", observed=True)
    if a not in wide.columns or b not in wide.columns:
        return np.array([], dtype=float)
    diff = (wide[a] - wide[b]).to_numpy(dtype=float)
    return diff[~np.isnan(diff)]


def bootstrap_gap_ci(differences: np.ndarray, resamples: int = 1000, seed: int = 0,
                     level: float = 0.95) -> tuple[float, float]:
    """Percentile bootstrap CI of the mean paired difference (examples resampled with
    replacement, ``resamples`` times, generator seeded by ``seed``); NaNs if there are none."""
    x = np.asarray(differences, dtype=float)
    if len(x) and (not 0 < level < 1 or resamples < 1):
        raise ValueError(f"bootstrap needs 0 < level < 1 and resamples ≥ 1, got level={level},"
                         f" resamples={resamples}")
    if not len(x):
        return math.nan, math.nan
    return bootstrap_mean_interval(x, Settings(resamples=resamples, seed=seed, level=level))
