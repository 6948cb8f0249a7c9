"""Statistics beyond the paper's one-way ANOVA, for paired designs (statsmodels, scipy).

FairTranslate's examples appear in all three gender variants, so the scores are paired: the
repeated-measures ANOVA (example = subject, gender = within factor) removes the between-example
variance that the one-way ANOVA leaves in its error term. Tukey HSD compares the genders two by
two, eta squared / partial eta squared give effect sizes, a seeded bootstrap gives confidence
intervals of group means, and Holm's step-down procedure corrects a family of p-values.
Correlations (Pearson, Spearman) with confidence intervals serve the GRAPE analyses.
"""

from __future__ import annotations

import functools
import logging
import math
import warnings
from collections.abc import Sequence
from itertools import combinations
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported where used: the workflow imports this module to plan
    import numpy as np

if TYPE_CHECKING:  # imported where used: the workflow imports this module to plan
    import pandas as pd

log = logging.getLogger(__name__)

RM_TEST = "repeated-measures ANOVA (statsmodels AnovaRM; subject = example)"
TUKEY_TEST = "Tukey HSD (statsmodels pairwise_tukeyhsd)"


def complete_subjects(frame: pd.DataFrame, subject: str, within: str,
                      levels: Sequence[str] | None = None) -> tuple[pd.DataFrame, int]:
    """The rows of subjects that have exactly one row at every level of ``within``.

    Returns the kept rows and the number of subjects dropped (incomplete or duplicated).
    """
    levels = list(levels) if levels is not None else sorted(frame[within].dropna().unique())
    part = frame[frame[within].isin(levels)]
    counts = part.groupby([subject, within], observed=True).size().unstack(fill_value=0)
    counts = counts.reindex(columns=levels, fill_value=0)
    complete = counts.index[(counts == 1).all(axis=1)]
    dropped = int(frame[subject].nunique() - len(complete))
    return part[part[subject].isin(complete)], dropped


def repeated_measures_anova(frame: pd.DataFrame, value: str = "score", within: str = "gender",
                            subject: str = "example_id",
                            levels: Sequence[str] | None = None) -> dict[str, float | int | str]:
    """One-way repeated-measures ANOVA of ``value`` over ``within``, subjects ``subject``.

    Subjects without exactly one row per level are dropped (``n_dropped`` says how many).
    Returns ``F``, ``p_value``, ``df_between`` (k-1), ``df_within`` ((n-1)(k-1)),
    ``eta_squared`` (SS_effect / SS_total), ``partial_eta_squared``
    (SS_effect / (SS_effect + SS_error)), ``n_subjects``, ``n_dropped`` and a ``note``.
    """
    from statsmodels.stats.anova import AnovaRM

    data = frame[[subject, within, value]].dropna(subset=[value]).copy()
    data[within] = data[within].astype(str)
    data[subject] = data[subject].astype(str)
    kept, dropped = complete_subjects(data, subject, within,
                                      None if levels is None else [str(v) for v in levels])
    n, k = kept[subject].nunique(), kept[within].nunique()
    result = {"F": math.nan, "p_value": math.nan, "df_between": max(k - 1, 0),
              "df_within": max((n - 1) * (k - 1), 0), "eta_squared": math.nan,
              "partial_eta_squared": math.nan, "n_subjects": n, "n_dropped": dropped,
              "note": ""}
    if dropped:
        result["note"] = f"{dropped} incomplete subjects dropped"
        log.info("RM-ANOVA: %d of %d subjects dropped (not one row per %s level)", dropped,
                 n + dropped, within)
    if k < 2 or n < 2:
        result["note"] = _join(result["note"], "fewer than two levels or two complete subjects")
        return result
    y = kept[value].astype(float)
    grand = y.mean()
    ss_total = float(((y - grand) ** 2).sum())
    ss_effect = float(n * ((kept.groupby(within)[value].mean() - grand) ** 2).sum())
    ss_subject = float(k * ((kept.groupby(subject)[value].mean() - grand) ** 2).sum())
    ss_error = ss_total - ss_effect - ss_subject
    if ss_total == 0.0:
        result["note"] = _join(result["note"], "all scores are equal")
        return result
    result["eta_squared"] = ss_effect / ss_total
    if ss_error <= 1e-12 * ss_total:
        result["note"] = _join(result["note"], "no residual variance: F is infinite")
        result.update(F=math.inf if ss_effect > 0 else math.nan,
                      p_value=0.0 if ss_effect > 0 else math.nan,
                      partial_eta_squared=1.0 if ss_effect > 0 else math.nan)
        return result
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        table = AnovaRM(kept, depvar=value, subject=subject, within=[within]).fit().anova_table
    result.update(F=float(table.loc[within, "F Value"]), p_value=float(table.loc[within, "Pr > F"]),
                  partial_eta_squared=ss_effect / (ss_effect + ss_error))
    return result


def tukey_hsd(frame: pd.DataFrame, value: str = "score", group: str = "gender",
              alpha: float = 0.05) -> pd.DataFrame:
    """Tukey's HSD between every pair of groups: ``group1, group2, meandiff`` (group2 − group1),
    ``p_adj, lower, upper, reject``. Empty when there are fewer than two groups."""
    import numpy as np
    import pandas as pd
    from statsmodels.stats.multicomp import pairwise_tukeyhsd

    _cache_tukey_critical_values()
    columns = ["group1", "group2", "meandiff", "p_adj", "lower", "upper", "reject"]
    data = frame[[value, group]].dropna()
    if data[group].nunique() < 2 or len(data) <= data[group].nunique():
        return pd.DataFrame(columns=columns)
    with warnings.catch_warnings(), np.errstate(divide="ignore", invalid="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        result = pairwise_tukeyhsd(data[value].astype(float), data[group].astype(str),
                                   alpha=alpha)
    # the unrounded values (summary() rounds to 4 decimals); pairs in statsmodels' order
    pairs = list(combinations(result.groupsunique, 2))
    return pd.DataFrame({
        "group1": [str(a) for a, _ in pairs], "group2": [str(b) for _, b in pairs],
        "meandiff": result.meandiffs.astype(float), "p_adj": result.pvalues.astype(float),
        "lower": result.confint[:, 0].astype(float), "upper": result.confint[:, 1].astype(float),
        "reject": result.reject.astype(bool)}, columns=columns)


_Q_CRIT = None  # statsmodels' own get_tukeyQcrit2, once replaced by the cached call


@functools.cache
def _tukey_critical_value(k, df, alpha=0.05):
    return _Q_CRIT(k, df, alpha)


def _cache_tukey_critical_values() -> None:
    """Make statsmodels' Tukey HSD reuse its critical value per (groups, df, alpha).

    ``pairwise_tukeyhsd`` computes the studentized range's quantile on every call (scipy's
    ``ppf``: a root search over a numerical double integral, about 0.1 s), though it depends
    only on the number of groups, the error degrees of freedom and alpha; a FairTranslate
    table asks the same (3, df, 0.05) once per system, prompt and test (34 times in the
    default). statsmodels looks the function up in its module at every call and passes no
    ``q_crit`` of its own, so its module attribute is replaced, once, by a cached call of the
    original: the same values, computed once (tests/unit/test_stats.py fails if statsmodels
    stops calling it so)."""
    global _Q_CRIT
    if _Q_CRIT is not None:
        return
    from statsmodels.sandbox.stats import multicomp

    original = getattr(multicomp, "get_tukeyQcrit2", None)
    if original is None:  # renamed upstream: uncached, as statsmodels computes it
        return
    _Q_CRIT = original
    multicomp.get_tukeyQcrit2 = _tukey_critical_value


# Bootstrap settings unless config says otherwise (FairTranslate's tables, the scorecard)
BOOTSTRAP = {"resamples": 1000, "seed": 0, "level": 0.95}


def bootstrap_mean_ci(values: Sequence[float] | np.ndarray, resamples: int = 1000,
                      seed: int = 0, level: float = 0.95) -> tuple[float, float]:
    """Percentile bootstrap confidence interval of the mean (resampling values with
    replacement, ``resamples`` times, with a generator seeded by ``seed``)."""
    import numpy as np

    x = np.asarray(values, dtype=float)
    x = x[~np.isnan(x)]
    if len(x) == 0:
        return math.nan, math.nan
    rng = np.random.default_rng(seed)
    means = x[rng.integers(0, len(x), size=(resamples, len(x)))].mean(axis=1)
    alpha = (1 - level) / 2
    low, high = np.quantile(means, [alpha, 1 - alpha])
    return float(low), float(high)


def holm(p_values: Sequence[float]) -> np.ndarray:
    """Holm's step-down adjusted p-values; NaN stays NaN and is not part of the family."""
    import numpy as np
    from statsmodels.stats.multitest import multipletests

    p = np.asarray(p_values, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    if ok.any():
        out[ok] = multipletests(p[ok], method="holm")[1]
    return out


def correlation(x: Sequence[float], y: Sequence[float], method: str = "pearson",
                level: float = 0.95) -> dict[str, float | int | str]:
    """Pearson or Spearman correlation with its p-value (two-sided) and a confidence interval.

    Pearson: scipy's exact interval (Fisher z). Spearman: Fisher z with the Fieller, Hartley and
    Pearson (1957) standard error sqrt(1.06 / (n - 3)). Pairs with a NaN are dropped.
    """
    import numpy as np
    from scipy import stats

    xs, ys = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if xs.shape != ys.shape:
        raise ValueError(f"x has {len(xs)} values but y has {len(ys)}")
    ok = ~(np.isnan(xs) | np.isnan(ys))
    xs, ys = xs[ok], ys[ok]
    n = len(xs)
    out = {"method": method, "n": n, "r": math.nan, "p_value": math.nan, "ci_low": math.nan,
           "ci_high": math.nan}
    if n < 3 or np.ptp(xs) == 0 or np.ptp(ys) == 0:
        return out
    if method == "pearson":
        res = stats.pearsonr(xs, ys)
        ci = res.confidence_interval(confidence_level=level) if n > 3 else (math.nan, math.nan)
        out.update(r=float(res.statistic), p_value=float(res.pvalue), ci_low=float(ci[0]),
                   ci_high=float(ci[1]))
    elif method == "spearman":
        res = stats.spearmanr(xs, ys)
        r = float(res.statistic)
        out.update(r=r, p_value=float(res.pvalue))
        if n > 3 and abs(r) < 1:
            z, se = math.atanh(r), math.sqrt(1.06 / (n - 3))
            q = float(stats.norm.ppf(1 - (1 - level) / 2))
            out.update(ci_low=math.tanh(z - q * se), ci_high=math.tanh(z + q * se))
    else:
        raise ValueError(f"unknown correlation method {method!r} (pearson or spearman)")
    return out


def _join(a: str, b: str) -> str:
    return f"{a}; {b}" if a else b


def wilson_interval(successes: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of a proportion ``successes / n`` (NaN, NaN when n is 0): a share
    of 1 of 1 kept row is 1.0, but its interval, [0.21, 1.0], says how little that is."""
    if n <= 0:
        return math.nan, math.nan
    from scipy.stats import norm

    z = float(norm.ppf(0.5 + level / 2))
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)
