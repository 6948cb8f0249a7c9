"""WinoMT's comparison of two systems on the same sentences (`compare:`): values by hand, the
paired interval against the same draws made directly, and the config checks."""

import math

import numpy as np
import pandas as pd
import pytest

from gendermt.analysis.resample import Settings
from gendermt.benchmarks.winomt.compare import (
    check,
    compare_languages,
    compare_pair,
    compare_tables,
    pair_languages,
    pairs_of,
)
from gendermt.core.errors import GenderMTError

# 10 sentences: items 0-4 gold male, 5-9 gold female
GOLD = ["male"] * 5 + ["female"] * 5
IDS = [f"{k:04d}" for k in range(10)]


def run(correct: set[int], ids=IDS, gold=GOLD) -> pd.DataFrame:
    """A per-sentence table: the gold gender where ``correct`` holds the row, else unknown."""
    return pd.DataFrame({"item_id": ids, "gold": gold,
                         "predicted": [g if k in correct else "unknown"
                                       for k, g in enumerate(gold)],
                         "stereotype": ["none"] * len(ids)})


SETTINGS = Settings(resamples=1000, seed=7, level=0.95)
# before: the five male sentences right; after: those and sentence 5 (female)
BEFORE, AFTER = run({0, 1, 2, 3, 4}), run({0, 1, 2, 3, 4, 5})


def rows_by_figure(before, after, settings=SETTINGS, reader="corrected"):
    return {r["figure"]: r for r in compare_pair(before, after, settings, reader)}


def test_values_and_change_by_hand():
    rows = rows_by_figure(BEFORE, AFTER)
    acc, dg = rows["acc"], rows["delta_g"]
    # accuracy 5/10 → 6/10
    assert (acc["before_value"], acc["after_value"], acc["change"]) == (50.0, 60.0, 10.0)
    # before: male P = R = 100 → F1 100; no female predicted → F1 0: ΔG 100.
    # after: female P 100, R 20 → F1 2·100·20/120 = 100/3: ΔG 200/3
    assert dg["before_value"] == pytest.approx(100.0)
    assert dg["after_value"] == pytest.approx(200 / 3)
    assert dg["change"] == pytest.approx(-100 / 3)
    assert {r["n"] for r in rows.values()} == {10}
    assert {(r["resamples"], r["seed"], r["level"]) for r in rows.values()} == {(1000, 7, 0.95)}


def test_the_accuracy_interval_is_paired_and_checkable_by_hand():
    """Only sentence 5 differs: a resample's change is 10 × how often it is drawn, never
    below 0. P(not drawn) = 0.9^10 = 0.35 > 2.5 %, so the low end is 0; the draws of
    sentence 5 are Binomial(10, 0.1), P(≤ 2) = 0.930 < 97.5 % < P(≤ 3) = 0.987: the high
    end is 30. (Two independent bootstraps of 50 % and 60 % would reach far below 0.)"""
    acc = rows_by_figure(BEFORE, AFTER)["acc"]
    assert (acc["ci_low"], acc["ci_high"]) == (0.0, 30.0)
    # the same draws made directly: default_rng(seed).integers(0, n, (resamples, n))
    draws = np.random.default_rng(7).integers(0, 10, size=(1000, 10))
    changes = 10.0 * (draws == 5).sum(axis=1)
    assert (acc["ci_low"], acc["ci_high"]) == tuple(np.quantile(changes, [0.025, 0.975]))
    # p: resampled changes, centred on their mean, at least 10 from 0; with the +1
    far = np.abs(changes - changes.mean()) >= 10
    assert acc["p"] == pytest.approx((far.sum() + 1) / 1001)


def test_the_delta_g_interval_matches_the_same_draws():
    dg = rows_by_figure(BEFORE, AFTER)["delta_g"]
    draws = np.random.default_rng(7).integers(0, 10, size=(1000, 10))
    w = np.stack([np.bincount(row, minlength=10) for row in draws]).astype(float)

    def delta_g(correct):
        male = w[:, :5].sum(axis=1)  # every male sentence right, predicted male
        f_right = w[:, sorted(correct - set(range(5)))].sum(axis=1)
        f_gold = w[:, 5:].sum(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            p, r = 100 * f_right / f_right, 100 * f_right / f_gold
            f1_f = np.nan_to_num(2 * p * r / (p + r))
            f1_m = np.where(male > 0, 100.0, 0.0)
        return f1_m - f1_f

    diffs = delta_g({0, 1, 2, 3, 4, 5}) - delta_g({0, 1, 2, 3, 4})
    diffs = diffs[~np.isnan(diffs)]
    assert (dg["ci_low"], dg["ci_high"]) == pytest.approx(
        tuple(np.quantile(diffs, [0.025, 0.975])))
    assert dg["ci_high"] <= 0  # sentence 5 can only raise female F1


def test_identical_systems_change_nothing():
    for row in compare_pair(BEFORE, BEFORE.copy(), SETTINGS):
        assert (row["change"], row["ci_low"], row["ci_high"], row["p"]) == (0.0, 0.0, 0.0, 1.0)


def test_only_the_shared_sentences_are_compared():
    # after was scored on sentences 0-7 only, listed in another order: n 8, by item_id
    after = run({0, 1, 2, 3, 4, 5}).iloc[[7, 6, 5, 4, 3, 2, 1, 0]]
    rows = rows_by_figure(BEFORE, after)
    assert rows["acc"]["n"] == 8
    assert (rows["acc"]["before_value"], rows["acc"]["after_value"]) == (62.5, 75.0)


def test_rounded_readers_round_as_the_summary():
    before, after = run({0, 1, 2}), run({0, 1, 2, 5})  # 3 male right; then 1 female too
    dg = rows_by_figure(before, after, reader="original")["delta_g"]
    # before: male P 100, R 60 → F1 75; ΔG 75. after: female P 100, R 20 → 33.3; ΔG 41.7
    assert (dg["before_value"], dg["after_value"], dg["change"]) == (75.0, 41.7, -33.3)


def test_tables_per_language_skip_a_pair_that_does_not_run_there():
    frames = {("old", "fr"): BEFORE, ("new", "fr"): AFTER, ("old", "de"): BEFORE}
    pairs = [{"before": "old", "after": "new", "label": "Service"}]
    tables = compare_tables(frames, pairs, ["fr", "de"], {"resamples": 200, "seed": 1})
    assert list(tables["fr"]["figure"]) == ["acc", "delta_g"]
    assert set(tables["fr"]["label"]) == {"Service"}
    assert tables["de"].empty and list(tables["de"].columns) == list(tables["fr"].columns)
    assert set(tables["fr"]["resamples"]) == {200}


SPEC = {"prompts": ["es", "fr", "de"], "systems": ["google", "bing", "gt", "ms"],
        "system_prompts": {"bing": ["fr", "de"], "ms": ["es"]},
        "compare": [{"before": "google", "after": "gt", "label": "Google"},
                    {"before": "bing", "after": "gt"}]}


def test_pairs_and_their_languages():
    pairs = pairs_of(SPEC)
    assert pairs[1]["label"] == "bing → gt"
    assert pair_languages(SPEC, pairs[0]) == ["es", "fr", "de"]
    assert pair_languages(SPEC, pairs[1]) == ["fr", "de"]
    assert compare_languages(SPEC) == ["es", "fr", "de"]
    assert compare_languages({**SPEC, "compare": [{"before": "bing", "after": "gt"}]}) == [
        "fr", "de"]
    check(SPEC, {"systems": {}})


@pytest.mark.parametrize("pair, message", [
    ({"before": "google", "after": "deepl"}, "compare[2].after: 'deepl' is not one of"),
    ({"before": "gt", "after": "gt"}, "compare[2]: before and after are both 'gt'"),
    ({"before": "bing", "after": "ms"}, "no language in common"),
    ({"before": "bing", "after": "google", "label": "Google"}, "'Google' is used twice"),
])
def test_bad_pairs_stop_at_start_up(pair, message):
    spec = {**SPEC, "compare": [*SPEC["compare"], pair]}
    with pytest.raises(GenderMTError, match=message.replace("[", r"\[").replace("]", r"\]")):
        check(spec, {"systems": {}})


def test_the_schema_refuses_an_unknown_key_in_a_pair(config_schema):
    from gendermt.config.checks import check_schema

    config = {"run": "x", "benchmarks": {"winomt": {
        "data": {"path": "en.txt"}, "templates": "t.yaml", "prompts": ["fr"],
        "systems": ["a", "b"], "compare": [{"before": "a", "after": "b", "year": 2026}]}},
        "systems": {"a": {"backend": "copy-source"}, "b": {"backend": "copy-source"}}}
    with pytest.raises(GenderMTError, match="compare.0.year: unknown key"):
        check_schema(config, config_schema)


def test_figure_is_drawn(tmp_path):
    pytest.importorskip("matplotlib")
    from gendermt.benchmarks.winomt.compare_figures import build_compare_figures
    from gendermt.data.io import write_table

    tables = compare_tables({("old", "fr"): BEFORE, ("new", "fr"): AFTER},
                            [{"before": "old", "after": "new", "label": "Service"}], ["fr"],
                            {"resamples": 100})
    write_table(tables["fr"], tmp_path / "compare_fr.csv")
    out = {"png_fr": tmp_path / "c.png", "pdf_fr": tmp_path / "c.pdf"}
    build_compare_figures({"fr": tmp_path / "compare_fr.csv"}, out)
    assert out["png_fr"].stat().st_size > 1000 and out["pdf_fr"].stat().st_size > 1000
    assert not math.isnan(float(tables["fr"]["ci_low"].iloc[0]))


def test_planning_imports_no_pandas_and_the_unit_is_the_intervals():
    """The rule file and the start-up check import the module: no pandas or numpy then."""
    import subprocess
    import sys

    from gendermt.benchmarks.winomt import compare, intervals

    assert compare.UNIT == intervals.UNIT
    code = ("import sys, gendermt.benchmarks.winomt.compare; "
            "print(sorted(m for m in ('pandas', 'numpy') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


def test_the_contract_runs_the_check_at_start_up():
    from gendermt.core import registry

    bad = {**SPEC, "compare": [{"before": "google", "after": "gpt"}]}
    with pytest.raises(GenderMTError, match=r"compare\[0\]\.after: 'gpt'"):
        registry.get("winomt").check_config(bad, {"systems": {}})
    # and still the alignment corpus's
    with pytest.raises(GenderMTError, match="alignment_corpus names 'nllb'"):
        registry.get("winomt").check_config({**SPEC, "alignment_corpus": {"nllb": "own"}},
                                            {"systems": {}})
