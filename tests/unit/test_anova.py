import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import f_oneway

from gendermt.analysis.anova import one_way_anova


def frame(groups: dict[str, list[float]]) -> pd.DataFrame:
    return pd.DataFrame([{"gender": g, "score": v} for g, vs in groups.items() for v in vs])


@pytest.mark.parametrize("seed", range(5))
def test_matches_scipy_f_oneway(seed):
    rng = np.random.default_rng(seed)
    groups = {"female": rng.normal(40, 10, 30), "male": rng.normal(45, 12, 30),
              "inclusive": rng.normal(35 + seed, 9, 25)}
    ours = one_way_anova(frame({k: list(v) for k, v in groups.items()}))
    expected = f_oneway(*groups.values())
    assert ours["F"] == pytest.approx(expected.statistic, rel=1e-9)
    assert ours["p_value"] == pytest.approx(expected.pvalue, rel=1e-6)
    assert (ours["df_between"], ours["df_within"]) == (2, 82)
    values = np.concatenate(list(groups.values()))
    ss_between = sum(len(v) * (v.mean() - values.mean()) ** 2 for v in groups.values())
    assert ours["eta_squared"] == pytest.approx(ss_between / ((values - values.mean()) ** 2).sum())
    assert ours["note"] == ""


def test_on_the_workflow_scores_of_an_oracle(sample_data):
    """The male oracle against each row's own reference: scipy on the same frame agrees."""
    from gendermt.scoring.sacrebleu_metrics import sentence_scores

    scores, _ = sentence_scores("bleu", sample_data["ref_male"], sample_data["reference"])
    data = sample_data.assign(score=scores)
    ours = one_way_anova(data)
    expected = f_oneway(*[data.loc[data["gender"] == g, "score"] for g in
                          ("female", "male", "inclusive")])
    assert ours["p_value"] == pytest.approx(expected.pvalue, rel=1e-6)
    assert ours["p_value"] < 1e-6


def test_degenerate_cases():
    equal = one_way_anova(frame({"male": [1.0, 1.0], "female": [1.0, 1.0]}))
    assert math.isnan(equal["p_value"]) and equal["note"] == "all scores are equal"
    one = one_way_anova(frame({"male": [1.0, 2.0]}))
    assert math.isnan(one["F"]) and "fewer than two groups" in one["note"]
    split = one_way_anova(frame({"male": [100.0, 100.0], "female": [50.0, 50.0]}))
    assert split["F"] == math.inf and split["p_value"] == 0.0
    assert split["eta_squared"] == pytest.approx(1.0) and "no variance within" in split["note"]
