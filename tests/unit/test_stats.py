"""The paired analysis, Tukey HSD, effect sizes, bootstrap, Holm and correlations against scipy
and statsmodels called directly on the same frames."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from gendermt.analysis import stats

GENDERS = ["female", "male", "inclusive"]


def paired_frame(seed: int, n: int = 40, effect=(0.0, 3.0, -4.0)) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    example = rng.normal(50, 10, n)  # between-example variance the paired test removes
    rows = [{"example_id": f"ex{i}", "gender": g, "score": example[i] + d + rng.normal(0, 5)}
            for i in range(n) for g, d in zip(GENDERS, effect, strict=True)]
    return pd.DataFrame(rows)


@pytest.mark.parametrize("seed", range(3))
def test_rm_anova_equals_statsmodels_and_the_textbook_formula(seed):
    from statsmodels.stats.anova import AnovaRM

    frame = paired_frame(seed)
    ours = stats.repeated_measures_anova(frame)
    table = AnovaRM(frame, "score", "example_id", within=["gender"]).fit().anova_table
    assert ours["F"] == pytest.approx(table.loc["gender", "F Value"], rel=1e-10)
    assert ours["p_value"] == pytest.approx(table.loc["gender", "Pr > F"], rel=1e-8)
    assert (ours["df_between"], ours["df_within"]) == (2, 78)
    wide = frame.pivot(index="example_id", columns="gender", values="score").to_numpy()
    n, k = wide.shape
    grand = wide.mean()
    ss_effect = n * ((wide.mean(axis=0) - grand) ** 2).sum()
    ss_subject = k * ((wide.mean(axis=1) - grand) ** 2).sum()
    ss_total = ((wide - grand) ** 2).sum()
    ss_error = ss_total - ss_effect - ss_subject
    f = (ss_effect / (k - 1)) / (ss_error / ((n - 1) * (k - 1)))
    assert ours["F"] == pytest.approx(f, rel=1e-10)
    assert ours["p_value"] == pytest.approx(sps.f.sf(f, k - 1, (n - 1) * (k - 1)), rel=1e-8)
    assert ours["eta_squared"] == pytest.approx(ss_effect / ss_total)
    assert ours["partial_eta_squared"] == pytest.approx(ss_effect / (ss_effect + ss_error))
    assert ours["n_subjects"] == 40 and ours["n_dropped"] == 0 and ours["note"] == ""


def test_rm_anova_with_two_levels_is_the_paired_t_test():
    frame = paired_frame(7)
    two = frame[frame["gender"] != "inclusive"]
    ours = stats.repeated_measures_anova(two)
    wide = two.pivot(index="example_id", columns="gender", values="score")
    t = sps.ttest_rel(wide["female"], wide["male"])
    assert ours["F"] == pytest.approx(t.statistic ** 2, rel=1e-10)
    assert ours["p_value"] == pytest.approx(t.pvalue, rel=1e-8)


def test_rm_anova_drops_incomplete_examples_and_counts_them():
    frame = paired_frame(1, n=10)
    broken = frame.drop(frame.index[(frame["example_id"] == "ex3") & (frame["gender"] == "male")])
    doubled = pd.concat([broken, broken[broken["example_id"] == "ex5"].head(1)])
    ours = stats.repeated_measures_anova(doubled)
    assert ours["n_subjects"] == 8 and ours["n_dropped"] == 2
    assert "2 incomplete subjects dropped" in ours["note"]
    kept = frame[~frame["example_id"].isin(["ex3", "ex5"])]
    assert ours["F"] == pytest.approx(stats.repeated_measures_anova(kept)["F"], rel=1e-12)


def test_rm_anova_degenerate_cases():
    same = paired_frame(0, n=5).assign(score=1.0)
    assert math.isnan(stats.repeated_measures_anova(same)["p_value"])
    exact = paired_frame(0, n=5)
    exact["score"] = exact["gender"].map({"female": 1.0, "male": 2.0, "inclusive": 3.0})
    result = stats.repeated_measures_anova(exact)
    assert result["F"] == math.inf and result["p_value"] == 0.0
    one = stats.repeated_measures_anova(paired_frame(0, n=1))
    assert math.isnan(one["F"]) and "two complete subjects" in one["note"]


def test_tukey_critical_value_is_computed_once_per_groups_and_df(monkeypatch):
    """The cached quantile gives statsmodels' own results, bit for bit, and the same
    (groups, df, alpha) is computed once: fails if statsmodels renames or stops calling
    ``get_tukeyQcrit2``."""
    from statsmodels.sandbox.stats import multicomp
    from statsmodels.stats.multicomp import pairwise_tukeyhsd

    stats.tukey_hsd(paired_frame(0))  # installs the cached call
    original = stats._Q_CRIT
    assert original is not None and multicomp.get_tukeyQcrit2 is stats._tukey_critical_value
    calls = []
    monkeypatch.setattr(stats, "_Q_CRIT", lambda *a: calls.append(a) or original(*a))
    stats._tukey_critical_value.cache_clear()
    frames = [paired_frame(seed) for seed in range(3)]  # the same groups and df
    ours = [stats.tukey_hsd(f) for f in frames]
    assert len(calls) == 1
    stats.tukey_hsd(paired_frame(0, n=20))  # another df
    assert len(calls) == 2
    monkeypatch.setattr(multicomp, "get_tukeyQcrit2", original)  # statsmodels as shipped
    for frame, cached in zip(frames, ours, strict=True):
        plain = pairwise_tukeyhsd(frame["score"], frame["gender"])
        assert cached["lower"].tolist() == plain.confint[:, 0].tolist()
        assert cached["upper"].tolist() == plain.confint[:, 1].tolist()
        assert cached["p_adj"].tolist() == plain.pvalues.tolist()
        assert cached["reject"].tolist() == plain.reject.tolist()
    stats._tukey_critical_value.cache_clear()  # no counting wrapper's values left behind


@pytest.mark.parametrize("seed", range(3))
def test_tukey_equals_scipy(seed):
    frame = paired_frame(seed)
    ours = stats.tukey_hsd(frame)
    groups = sorted(GENDERS)  # statsmodels orders the levels
    samples = [frame.loc[frame["gender"] == g, "score"].to_numpy() for g in groups]
    res = sps.tukey_hsd(*samples)
    ci = res.confidence_interval(0.95)
    assert len(ours) == 3
    for row in ours.itertuples():
        i, j = groups.index(row.group1), groups.index(row.group2)
        assert row.meandiff == pytest.approx(samples[j].mean() - samples[i].mean(), rel=1e-9)
        # scipy and statsmodels integrate the studentized range distribution differently
        assert row.p_adj == pytest.approx(res.pvalue[i, j], rel=1e-3, abs=1e-6)
        assert row.lower == pytest.approx(-ci.high[i, j], rel=1e-4)
        assert row.upper == pytest.approx(-ci.low[i, j], rel=1e-4)
        assert row.reject == (res.pvalue[i, j] < 0.05)


def test_bootstrap_is_seeded_and_covers_the_mean():
    values = np.random.default_rng(3).normal(40, 10, 400)
    a = stats.bootstrap_mean_ci(values, resamples=2000, seed=5)
    assert a == stats.bootstrap_mean_ci(values, resamples=2000, seed=5)
    assert a != stats.bootstrap_mean_ci(values, resamples=2000, seed=6)
    se = values.std(ddof=1) / math.sqrt(len(values))
    assert a[0] < values.mean() < a[1]
    assert a[0] == pytest.approx(values.mean() - 1.96 * se, abs=0.25 * se)
    assert a[1] == pytest.approx(values.mean() + 1.96 * se, abs=0.25 * se)
    assert all(math.isnan(v) for v in stats.bootstrap_mean_ci([]))


def test_holm_by_hand():
    p = [0.01, 0.04, 0.03, math.nan, 0.005]
    # sorted: 0.005×4, 0.01×3, 0.03×2, 0.04×1, monotone
    expected = [0.03, 0.06, 0.06, math.nan, 0.02]
    np.testing.assert_allclose(stats.holm(p), expected, rtol=1e-12)


@pytest.mark.parametrize("method", ["pearson", "spearman"])
def test_correlation_equals_scipy(method):
    rng = np.random.default_rng(2)
    x = rng.normal(size=50)
    y = 0.5 * x + rng.normal(size=50)
    ours = stats.correlation(np.append(x, np.nan), np.append(y, 1.0), method)
    assert ours["n"] == 50
    if method == "pearson":
        res = sps.pearsonr(x, y)
        ci = res.confidence_interval()
        assert (ours["ci_low"], ours["ci_high"]) == pytest.approx((ci.low, ci.high))
    else:
        res = sps.spearmanr(x, y)
        z, se = math.atanh(res.statistic), math.sqrt(1.06 / 47)
        assert ours["ci_low"] == pytest.approx(math.tanh(z - 1.959963984540054 * se))
        assert ours["ci_high"] == pytest.approx(math.tanh(z + 1.959963984540054 * se))
    assert ours["r"] == pytest.approx(res.statistic)
    assert ours["p_value"] == pytest.approx(res.pvalue)
    assert ours["ci_low"] < ours["r"] < ours["ci_high"]
    with pytest.raises(ValueError, match="unknown correlation method"):
        stats.correlation(x, y, "kendall")


def test_paired_analysis_on_the_fairtranslate_sample(sample_data):
    """The male oracle's sentence BLEU on the shipped sample: the example ids of data.parquet
    group the three variants, and statsmodels on the same frame agrees."""
    from statsmodels.stats.anova import AnovaRM

    from gendermt.scoring.metrics import sentence_scores

    scores, _ = sentence_scores("bleu", sample_data["ref_male"], sample_data["reference"])
    frame = sample_data.assign(score=scores)
    ours = stats.repeated_measures_anova(frame, levels=GENDERS)
    assert ours["n_subjects"] == 18 and ours["n_dropped"] == 0
    table = AnovaRM(frame[["example_id", "gender", "score"]], "score", "example_id",
                    within=["gender"]).fit().anova_table
    assert ours["p_value"] == pytest.approx(table.loc["gender", "Pr > F"], rel=1e-8)
    assert ours["p_value"] < 1e-6


def test_wilson_interval_gives_a_one_row_share_its_width():
    from gendermt.analysis.stats import wilson_interval

    low, high = wilson_interval(1, 1)
    assert high == 1.0 and low == pytest.approx(0.2065, abs=1e-3)  # 1 of 1: 1.0, but wide
    low, high = wilson_interval(18, 18)
    assert low == pytest.approx(0.8241, abs=1e-3)
    low, high = wilson_interval(5, 10)
    assert (low, high) == (pytest.approx(0.2366, abs=1e-3), pytest.approx(0.7634, abs=1e-3))
    assert all(np.isnan(x) for x in wilson_interval(0, 0))
