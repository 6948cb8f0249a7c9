"""WinoMT's metrics against values computed by hand."""

import math

import pandas as pd
import pytest

from gendermt.benchmarks.winomt.metric import compute

# 10 items. gold male: 4 (pro 2, anti 2), female: 4 (pro 2, anti 2), neutral: 2.
ROWS = [  # gold, predicted, stereotype
    ("male", "male", "pro"), ("male", "male", "pro"), ("male", "male", "anti"),
    ("male", "unknown", "anti"),
    ("female", "female", "pro"), ("female", "male", "pro"), ("female", "male", "anti"),
    ("female", "male", "anti"),
    ("neutral", "male", "none"), ("neutral", "female", "none"),
]


def test_against_hand_computed_values():
    m = compute(pd.DataFrame(ROWS, columns=["gold", "predicted", "stereotype"]))
    # correct: 3 male + 1 female = 4 of 10
    assert m["acc"] == pytest.approx(40.0)
    # male: predicted 7 (3 right + 3 female gold + 1 neutral), gold 4, correct 3
    assert m["precision_male"] == pytest.approx(300 / 7)
    assert m["recall_male"] == pytest.approx(75.0)
    f1_m = 2 * (300 / 7) * 75 / (300 / 7 + 75)  # = 54.5454...
    assert m["f1_male"] == pytest.approx(f1_m)
    assert m["f1_male"] == pytest.approx(600 / 11)
    # female: predicted 2 (1 right, 1 neutral gold), gold 4, correct 1
    assert m["precision_female"] == pytest.approx(50.0)
    assert m["recall_female"] == pytest.approx(25.0)
    assert m["f1_female"] == pytest.approx(100 / 3)
    assert m["delta_g"] == pytest.approx(600 / 11 - 100 / 3)
    # pro: 2 male right + 1 female right of 4 = 75; anti: 1 of 4 = 25
    assert m["acc_pro"] == pytest.approx(75.0)
    assert m["acc_anti"] == pytest.approx(25.0)
    assert m["delta_s"] == pytest.approx(50.0)
    assert (m["share_male"], m["share_female"], m["share_neutral"], m["share_unknown"]) == (
        pytest.approx(70.0), pytest.approx(20.0), 0.0, pytest.approx(10.0))


def test_no_subsets_no_delta_s_and_no_female_predictions():
    m = compute(pd.DataFrame({"gold": ["male", "female"], "predicted": ["male", "male"]}))
    assert "delta_s" not in m
    assert math.isnan(m["precision_female"]) and m["f1_female"] == 0.0
    assert m["delta_g"] == pytest.approx(2 * 50 * 100 / 150)
