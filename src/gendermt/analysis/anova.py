"""One-way ANOVA across groups (the FairTranslate paper's Table 6), with statsmodels."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd

TEST_NAME = "one-way ANOVA (statsmodels OLS, anova_lm typ=2)"


def one_way_anova(frame: pd.DataFrame, value: str = "score", group: str = "gender"
                  ) -> dict[str, float | int | str]:
    """F test that the mean of ``value`` is equal across the levels of ``group``.

    Returns ``F``, ``p_value``, ``df_between``, ``df_within``, ``eta_squared`` (SS_between /
    SS_total) and a ``note`` for the cases where the test is undefined.
    """
    import statsmodels.formula.api as smf
    from statsmodels.stats.anova import anova_lm

    data = pd.DataFrame({"y": frame[value].astype(float), "g": frame[group].astype(str)})
    data = data.dropna()
    k, n = data["g"].nunique(), len(data)
    result = {"F": math.nan, "p_value": math.nan, "df_between": k - 1, "df_within": n - k,
              "eta_squared": math.nan, "note": ""}
    if k < 2 or n <= k:
        result["note"] = "fewer than two groups or no residual degrees of freedom"
        return result
    ss_total = float(((data["y"] - data["y"].mean()) ** 2).sum())
    if ss_total == 0.0:
        result["note"] = "all scores are equal"
        return result
    with warnings.catch_warnings(), np.errstate(divide="ignore", invalid="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        table = anova_lm(smf.ols("y ~ C(g)", data=data).fit(), typ=2)
    ss_between = float(table.loc["C(g)", "sum_sq"])
    result.update(F=float(table.loc["C(g)", "F"]), p_value=float(table.loc["C(g)", "PR(>F)"]),
                  eta_squared=ss_between / ss_total)
    if float(table.loc["Residual", "sum_sq"]) <= 1e-12 * ss_total:
        result["note"] = "no variance within groups: F is infinite"
        result.update(F=math.inf, p_value=0.0)
    return result
