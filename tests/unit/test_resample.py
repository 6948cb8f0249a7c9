"""gendermt.analysis.resample / .intervals: the paired bootstrap in chunks, the paired test,
Holm, the lead group, Wilson/Newcombe, sacrebleu's paired test (issue 48)."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from gendermt.analysis import resample as R
from gendermt.analysis.intervals import Group, Spec, interval_frames, ratio
from gendermt.analysis.stats import bootstrap_mean_ci, holm
from gendermt.core.errors import GenderMTError


def mean_of(n):
    return lambda sums: sums[:, 0] / n


def test_bootstrap_equals_direct_numpy_on_fixed_data_and_seed():
    x = np.random.default_rng(7).normal(size=37)
    settings = R.Settings(resamples=250, seed=3, level=0.9)
    # chunks of 4 resamples (4 × 37 ≤ 150 cells): the draws must not depend on the chunking
    boot = R.resampled({"s": x[:, None]}, {"mean": mean_of(len(x))}, settings, max_cells=150)
    direct = x[np.random.default_rng(3).integers(0, 37, size=(250, 37))].mean(axis=1)
    np.testing.assert_allclose(boot[("mean", "s")], direct, rtol=0, atol=1e-12)
    low, high = R.percentile_interval(boot[("mean", "s")], 0.9)
    q = np.quantile(direct, [0.05, 0.95])
    assert low == pytest.approx(q[0], abs=1e-12) and high == pytest.approx(q[1], abs=1e-12)
    # and the same interval as the tables' bootstrap_mean_ci (same generator and draws)
    assert R.bootstrap_mean_interval(x, settings, max_cells=150) == pytest.approx(
        bootstrap_mean_ci(x, 250, 3, 0.9), abs=1e-12)


def test_chunks_stay_within_the_cell_bound_and_draw_every_resample():
    settings = R.Settings(resamples=1000, seed=0)
    sizes = [idx.shape for idx in R.index_chunks(3888, settings, max_cells=100_000)]
    assert all(rows * units <= 100_000 for rows, units in sizes)
    assert sum(rows for rows, _ in sizes) == 1000
    assert R.chunk_rows(10**7, 1000, max_cells=1000) == 1  # at least one row
    assert R.chunk_rows(10, 5, max_cells=10**6) == 5


def test_memory_does_not_grow_with_resamples_times_systems(monkeypatch):
    """Weights are only ever built for one chunk (≤ max_cells), whatever the systems."""
    seen = []
    original = R.weights

    def spy(indices, n):
        seen.append(indices.size)
        return original(indices, n)

    monkeypatch.setattr(R, "weights", spy)
    columns = {f"s{i}": np.ones((500, 2)) for i in range(6)}
    R.resampled(columns, {"m": mean_of(500)}, R.Settings(resamples=400), max_cells=5000)
    assert seen and max(seen) <= 5000 and sum(seen) == 400 * 500


def test_resamples_are_paired_across_systems():
    x = np.arange(20, dtype=float)
    boot = R.resampled({"a": x[:, None], "b": (x + 1)[:, None]}, {"m": mean_of(20)},
                       R.Settings(resamples=50))
    np.testing.assert_allclose(boot[("m", "b")] - boot[("m", "a")], 1.0)


def test_paired_test_finds_a_planted_difference_and_none_between_identical_systems():
    rng = np.random.default_rng(1)
    base = rng.random(400) < 0.6
    better = base | (rng.random(400) < 0.3)  # about 12 points more correct, same items
    settings = R.Settings(resamples=1000)
    cols = {"base": base[:, None].astype(float), "better": better[:, None].astype(float),
            "same": base[:, None].astype(float)}
    stat = mean_of(400)
    boot = R.resampled(cols, {"acc": stat}, settings)
    value = {s: R.point(c, stat) for s, c in cols.items()}
    planted = R.paired_test(value["better"], value["base"], boot[("acc", "better")],
                            boot[("acc", "base")], "higher", 0.95)
    assert planted.difference > 0.08 and planted.p < 0.01 and planted.ci_low > 0
    same = R.paired_test(value["same"], value["base"], boot[("acc", "same")],
                         boot[("acc", "base")], "higher", 0.95)
    assert same.difference == 0 and same.p == 1.0
    # "closer to 0": the smaller |x| is better
    closer = R.paired_test(-0.1, 0.5, np.full(10, -0.1), np.full(10, 0.5), "closer to 0", 0.95)
    assert closer.difference == pytest.approx(0.4)


def test_goodness_directions():
    assert R.goodness(3.0, "higher") == 3.0
    assert R.goodness(3.0, "lower") == -3.0
    assert R.goodness(47.0, "closer to 50") == -3.0
    np.testing.assert_allclose(R.goodness(np.array([-2.0, 1.0]), "closer to 0"), [-2.0, -1.0])
    with pytest.raises(GenderMTError):
        R.goodness(1.0, "bigger")


def test_holm():
    np.testing.assert_allclose(holm([0.01, 0.04, 0.03]), [0.03, 0.06, 0.06])
    assert np.isnan(holm([np.nan, 0.01])[0])


def test_lead_group_ties_holm_and_untested():
    values = {"a": 90.0, "b": 90.0, "c": 88.0, "d": 70.0, "e": 89.0}
    raw = {"c": 0.02, "d": 0.001, "e": 0.03}
    group = R.lead_group(values, "higher", lambda leader, other: raw[other], alpha=0.05)
    # exact ties share the lead; Holm over c, d, e: d 0.003, c 0.04 (0.02·2), e 0.04 → both
    # c and e separated (< 0.05)
    assert group == ["a", "b"]
    raw["e"] = 0.2  # Holm: d 0.003, c 0.04, e 0.2 → e shares the lead
    assert R.lead_group(values, "higher", lambda _, o: raw[o]) == ["a", "b", "e"]
    # no paired test possible: not separable
    assert set(R.lead_group({"a": 1.0, "b": 0.5}, "higher", lambda *_: math.nan)) == {"a", "b"}
    # closer to 0: the smallest |x| leads
    assert R.lead_group({"a": -1.0, "b": 5.0}, "closer to 0", lambda *_: 0.0) == ["a"]
    assert R.lead_group({"a": math.nan}, "higher", lambda *_: 0.0) == []


def test_wilson_and_newcombe():
    low, high = R.wilson(1, 1, 0.95)
    assert low == pytest.approx(0.2065, abs=1e-4) and high == 1.0
    # Newcombe (1998) Table II, example (a): 56/70 − 48/80, method 10: 0.0524 to 0.3339
    low, high = R.newcombe(56, 70, 48, 80, 0.95)
    assert low == pytest.approx(0.0524, abs=1e-4) and high == pytest.approx(0.3339, abs=1e-4)


def test_small_counts_get_wilson_and_newcombe_intervals():
    correct = np.array([1, 1, 0, 1, 0, 1, 1, 1, 0, 1], dtype=float)
    ones = np.ones(10)
    group = Group("sentence", [
        Spec("acc", "higher", ratio(0, 1), proportion=(0, 1)),
        Spec("diff", "closer to 0", lambda s: 100 * (s[:, 0] / s[:, 1] - s[:, 2] / s[:, 3]),
             difference=(0, 1, 2, 3))])
    group.columns[("x", "p")] = np.column_stack([correct, ones, 1 - correct, ones])
    intervals, _ = interval_frames([group], R.Settings(resamples=50, small_n=30))
    acc = intervals.set_index("figure").loc["acc"]
    assert acc["method"] == R.WILSON and acc["value"] == pytest.approx(70)
    assert (acc["ci_low"], acc["ci_high"]) == pytest.approx(
        tuple(100 * v for v in R.wilson(7, 10, 0.95)))
    assert intervals.set_index("figure").loc["diff", "method"] == R.NEWCOMBE
    large, _ = interval_frames([group], R.Settings(resamples=50, small_n=5))
    assert set(large["method"]) == {R.BOOTSTRAP_METHOD}


def test_pairs_table_has_every_pair_and_signature():
    group = Group("row", [Spec("accuracy", "higher", ratio(0, 1))])
    rng = np.random.default_rng(0)
    for s in ("a", "b", "c"):
        group.columns[(s, "p")] = np.column_stack([rng.random(50) < 0.5, np.ones(50)])
    intervals, pairs = interval_frames([group], R.Settings(resamples=100, seed=4))
    assert len(intervals) == 3 and len(pairs) == 3
    assert set(zip(pairs["system_a"], pairs["system_b"], strict=True)) == {
        ("a", "b"), ("a", "c"), ("b", "c")}
    sig = intervals["signature"].iloc[0]
    assert "unit:row" in sig and "resamples:100" in sig and "seed:4" in sig
    assert "method:percentile bootstrap" in sig


def test_settings_from_config():
    assert R.Settings.of({}) == R.Settings(1000, 0, 0.95)
    assert R.Settings.of({"resamples": 10, "seed": 2, "level": 0.9}).alpha == pytest.approx(0.1)
    with pytest.raises(GenderMTError, match="unknown"):
        R.Settings.of({"samples": 10})
    with pytest.raises(GenderMTError):
        R.Settings.of({"level": 1.5})


REF = ["the cat sat on the mat", "a dog runs fast", "hello world again",
       "this is a test sentence", "gender bias in translation", "she is a doctor",
       "he is a nurse", "the engineer finished her work"]
HYP_A = ["the cat sat on a mat", "a dog ran fast", "hello world", "this is test sentence",
         "gender bias in the translation", "she is doctor", "he is a nurse",
         "the engineer finished his work"]
HYP_B = ["cat sat mat", "dog runs quickly", "hello there world again", "this is a test",
         "bias gender translation", "she is a doctor", "he is nurse",
         "engineer finished her work"]


def test_sacrebleu_paired_bs_equals_the_command_line(tmp_path: Path):
    # BLEU (sacrebleu 2.6's --paired-bs -m chrf -f json fails: float32 is not JSON)
    metric = "bleu"
    sacrebleu = shutil.which("sacrebleu") or str(Path(sys.executable).parent / "sacrebleu")
    if not Path(sacrebleu).is_file():
        pytest.skip("the sacrebleu command is not installed")
    for name, lines in (("ref", REF), ("a", HYP_A), ("b", HYP_B)):
        (tmp_path / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = subprocess.run([sacrebleu, "ref.txt", "-i", "a.txt", "b.txt", "--paired-bs", "-m",
                          metric, "-f", "json"], cwd=tmp_path, capture_output=True,
                         text=True, check=True, env={"PATH": "/usr/bin:/bin"}).stdout
    cli = json.loads(out)
    ours = R.sacrebleu_paired({"a": HYP_A, "b": HYP_B}, REF, metric, "bs",
                              seed=R.SACREBLEU_DEFAULT_SEED)
    key = "BLEU"
    for record, system in zip(cli, ("a", "b"), strict=True):
        assert ours[system]["score"] == pytest.approx(record[key]["score"], abs=1e-9)
        assert ours[system]["mean"] == pytest.approx(record[key]["mean"], abs=1e-9)
        assert ours[system]["ci"] == pytest.approx(record[key]["ci"], abs=1e-9)
    assert ours["a"]["p"] is None
    assert ours["b"]["p"] == pytest.approx(cli[1][key]["p_value"], abs=1e-12)


def test_sacrebleu_paired_chrf_is_seeded():
    first = R.sacrebleu_paired({"a": HYP_A, "b": HYP_B}, REF, "chrf", "bs", resamples=100)
    again = R.sacrebleu_paired({"a": HYP_A, "b": HYP_B}, REF, "chrf", "bs", resamples=100)
    assert first["b"]["p"] == again["b"]["p"] and 0 < first["b"]["p"] <= 1
    import sacrebleu

    assert first["a"]["score"] == pytest.approx(sacrebleu.corpus_chrf(HYP_A, [REF]).score)


def test_sacrebleu_paired_ar_runs_and_rejects_bad_input():
    result = R.sacrebleu_paired({"a": HYP_A, "b": HYP_B}, REF, "bleu", "ar", resamples=200,
                                seed=5)
    assert 0 < result["b"]["p"] <= 1 and "ar:200" in result["b"]["signature"]
    again = R.sacrebleu_paired({"a": HYP_A, "b": HYP_B}, REF, "bleu", "ar", resamples=200,
                               seed=5)
    assert again["b"]["p"] == result["b"]["p"]  # seeded
    with pytest.raises(GenderMTError):
        R.sacrebleu_paired({"a": HYP_A}, REF)
    with pytest.raises(GenderMTError):
        R.sacrebleu_paired({"a": HYP_A, "b": HYP_B}, REF, test="xx")


def test_frames_are_dataframes_with_the_documented_columns():
    group = Group("instance", [Spec("accuracy", "higher", ratio(0, 1))])
    group.columns[("s", "p")] = np.column_stack([np.ones(40), np.ones(40)])
    intervals, pairs = interval_frames([group], R.Settings(resamples=20))
    assert isinstance(intervals, pd.DataFrame)
    assert {"figure", "system", "value", "ci_low", "ci_high", "n", "unit", "method",
            "resamples", "seed", "level"} <= set(intervals.columns)
    assert {"figure", "system_a", "system_b", "difference", "ci_low", "ci_high",
            "p"} <= set(pairs.columns)
    assert intervals["n"].iloc[0] == 40 and intervals["value"].iloc[0] == 100
