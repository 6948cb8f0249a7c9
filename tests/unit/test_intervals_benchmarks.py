"""Each benchmark's intervals stage on small hand-made per-item files: values equal the
summary tables', the resampled statistic is the tables' computation, and the scorecard takes
the intervals, n and lead group (oracles and low-quality cells never lead) (issue 48)."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

from gendermt.analysis.resample import point
from gendermt.cli import main
from gendermt.scorecard.build import build, to_records

BOOT = {"resamples": 200, "seed": 1, "level": 0.95}


def _winomt_frame(seed: int, n: int = 60) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    gold = rng.choice(["male", "female"], n)
    pred = np.where(rng.random(n) < 0.7, gold,
                    rng.choice(["male", "female", "unknown", "neutral"], n))
    return pd.DataFrame({"item_id": [f"{i:04d}" for i in range(n)], "gold": gold,
                         "predicted": pred, "stereotype": np.tile(["pro", "anti", "none"],
                                                                  n // 3)})


def test_winomt_statistics_are_metric_compute_and_values_the_summary(tmp_path):
    from gendermt.benchmarks.winomt import intervals as W
    from gendermt.benchmarks.winomt.metric import compute
    from gendermt.benchmarks.winomt.tables import build_tables

    runs, summaries = [], []
    for k, system in enumerate(("a", "b")):
        frame = _winomt_frame(k)
        path = tmp_path / f"{system}.parquet"
        frame.to_parquet(path)
        runs.append({"system": system, "lang": "es", "path": str(path)})
        metrics = compute(frame)
        counts = W.counts(frame)
        for spec in W.specs("es", True):
            key = spec.figure.rsplit("_", 1)[0]
            expected = 100 - metrics["share_unknown"] if key == "readable" else metrics[key]
            assert point(counts, spec.statistic) == pytest.approx(expected, abs=1e-9)
        summary = tmp_path / f"{system}.json"
        summary.write_text(json.dumps({"system": system, "lang": "es", **metrics,
                                       "reader": "corrected"}))
        summaries.append(str(summary))
    out = {"intervals": tmp_path / "intervals.csv", "pairs": tmp_path / "pairs.csv"}
    W.build_intervals(runs, out, BOOT)
    build_tables(summaries, str(tmp_path / "summary.csv"), str(tmp_path / "summary.md"),
                 ["a", "b"], ["es"])
    table = pd.read_csv(tmp_path / "summary.csv").set_index("system")
    intervals = pd.read_csv(out["intervals"])
    for row in intervals.itertuples():
        key = row.figure.rsplit("_", 1)[0]
        expected = (100 - table.loc[row.system, "share_unknown"] if key == "readable"
                    else table.loc[row.system, key])
        assert row.value == pytest.approx(expected, rel=1e-6)
        assert row.ci_low <= row.value <= row.ci_high and row.n == 60
        assert row.unit == "sentence" and row.resamples == 200 and row.seed == 1
    pairs = pd.read_csv(out["pairs"])
    assert len(pairs) == 4 and set(pairs["figure"]) == {"readable_es", "acc_es",
                                                         "delta_g_es", "delta_s_es"}


def test_winomt_f1_is_zero_where_a_gender_is_never_predicted():
    from gendermt.benchmarks.winomt import intervals as W
    from gendermt.benchmarks.winomt.metric import compute

    frame = pd.DataFrame({"item_id": ["1", "2", "3"], "gold": ["male", "female", "male"],
                          "predicted": ["male", "male", "male"], "stereotype": ["pro"] * 3})
    assert point(W.counts(frame), W.delta_g) == pytest.approx(compute(frame)["delta_g"])


def _mt_geneval_items(seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for lang in ("es", "fr"):
        for p in range(40):
            for gender in ("masculine", "feminine"):
                ok = bool(rng.random() < (0.9 if gender == "masculine" else 0.6))
                rows.append({"item_id": f"{lang}-cf-{p}-{gender[0]}",
                             "pair_id": f"{lang}-cf-{p}", "set": "counterfactual",
                             "gender": gender, "tgt_lang": lang, "correct": ok,
                             "correct_words": "w" if rng.random() < 0.7 else ""})
        for i in range(35):
            rows.append({"item_id": f"{lang}-ctx-{i}", "pair_id": f"{lang}-ctx-{i}",
                         "set": "contextual", "gender": rng.choice(["masculine", "feminine"]),
                         "tgt_lang": lang, "correct": bool(rng.random() < 0.7),
                         "correct_words": "w" if rng.random() < 0.5 else ""})
    items = pd.DataFrame(rows)
    items["pair_correct"] = items.groupby("pair_id")["correct"].transform("all")
    return items


def test_mt_geneval_values_equal_the_accuracy_table(tmp_path):
    from gendermt.benchmarks.mt_geneval import intervals as M
    from gendermt.benchmarks.mt_geneval.tables import accuracy_table

    runs = []
    for k, system in enumerate(("x", "y")):
        path = tmp_path / f"{system}.parquet"
        _mt_geneval_items(k).to_parquet(path)
        runs.append({"system": system, "prompt": "baseline", "path": str(path)})
    groups = M.groups(runs)
    table = accuracy_table(runs)
    for group in groups:
        for (system, prompt), counts in group.columns.items():
            for spec in group.specs:
                key, lang = spec.figure.rsplit("_", 1)
                which = "contextual" if key.startswith("contextual") else "counterfactual"
                row = table[(table["system"] == system) & (table["lang"] == lang)
                            & (table["set"] == which)].iloc[0]
                column = {"gap": "accuracy_gap", "contextual": "accuracy",
                          "counterfactual_accuracy": "accuracy"}.get(key, "correct_word_rate")
                # the resampled statistic on the sample is the table's computation
                assert point(counts, spec.statistic) == pytest.approx(100 * row[column])
                assert group.values[(spec.figure, system, prompt)] == pytest.approx(
                    100 * row[column])
    out = {"intervals": tmp_path / "i.csv", "pairs": tmp_path / "p.csv"}
    M.build_intervals(runs, out, BOOT)
    intervals = pd.read_csv(out["intervals"])
    assert set(intervals["unit"]) == {"counterfactual pair", "contextual item"}
    assert set(intervals.loc[intervals["unit"] == "counterfactual pair", "n"]) == {40}


def test_gate_values_equal_prf(tmp_path):
    from gendermt.benchmarks.gate import intervals as G
    from gendermt.benchmarks.gate.tables import scores_of
    from gendermt.data.io import write_jsonl

    rng = np.random.default_rng(3)
    rows = []
    for lang in ("es", "fr"):
        for r in range(30):
            for gender in ("masculine", "feminine"):
                rows.append({"item_id": f"{lang}-{r}-{gender}", "language": lang, "row": r,
                             "source": "a b c" if r % 5 else "a b c d e f g",
                             "requested_gender": gender, "reference": f"ref {r} {gender}",
                             "labels": "PROF"})
    data = pd.DataFrame(rows)
    data_path = tmp_path / "data.parquet"
    data.to_parquet(data_path)
    runs = []
    for system in ("s1", "s2"):
        outputs = {i: (ref if rng.random() < 0.6 else ("" if rng.random() < 0.5 else "x"))
                   for i, ref in zip(data["item_id"], data["reference"], strict=True)}
        path = tmp_path / f"{system}.jsonl"
        write_jsonl(path, [{"item_id": k, "hypothesis": v} for k, v in outputs.items()])
        runs.append({"system": system, "prompt": "rewrite", "path": str(path),
                     "outputs": outputs})
    for options in ({}, {"max_words": 5}, {"max_words": 5, "full_set_recall": True}):
        groups = G.groups(data_path, runs, **options)
        assert [g.unit for g in groups] == ["row"]
        for run in runs:
            prf = scores_of(data, run["outputs"], options.get("min_words"),
                            options.get("max_words"), options.get("full_set_recall", False))
            overall = prf[prf["category"] == "overall"]
            expected = 100 * overall["matches"].sum() / overall["count"].sum()
            counts = groups[0].columns[(run["system"], "rewrite")]
            assert point(counts, G.FIGURE.statistic) == pytest.approx(expected)
            assert len(counts) == 60  # (language, row) units: both directions together


def test_gate_x_e_values_equal_accuracy_long(tmp_path):
    from gendermt.benchmarks.gate_x_e import intervals as X
    from gendermt.benchmarks.gate_x_e.metric import accuracy_long

    rng = np.random.default_rng(5)
    rows = []
    for i in range(30):
        original = ["feminine", "masculine", "mixed", "negative"][i % 4]
        requested = (["feminine", "masculine", "neutral"] if original in ("mixed", "negative")
                     else ["masculine" if original == "feminine" else "feminine", "neutral"])
        for req in requested:
            match = bool(rng.random() < 0.7)
            rows.append({"tuple_id": f"tr-{i}-{req}", "instance_id": f"tr-{i}",
                         "language": "tr" if i < 20 else "ar",
                         "category": ["Pronoun-Only", "Gendered-Noun"][i % 2],
                         "original_gender": original, "requested_gender": req,
                         "match": match, "relaxed_match": match or bool(rng.random() < 0.5)})
    scored = pd.DataFrame(rows)
    path = tmp_path / "r.parquet"
    scored.to_parquet(path)
    long = accuracy_long(scored)
    overall = long[(long["subtype"] == "Overall") & (long["requested"] != "Neut (relaxed)")]
    expected = 100 * overall["correct"].sum() / overall["n"].sum()
    groups = X.groups([{"system": "r", "prompt": "p", "path": str(path)}])
    counts = groups[0].columns[("r", "p")]
    assert len(counts) == 30
    assert point(counts, X.FIGURE.statistic) == pytest.approx(expected)


def _write(path, frame):
    path.parent.mkdir(parents=True, exist_ok=True)
    frame.to_csv(path, index=False)


@pytest.fixture
def gate_results(tmp_path):
    """GATE tables of four systems with intervals and pairs: an oracle best, two models the
    test cannot separate, one separable model."""
    res = tmp_path / "results"
    _write(res / "gate" / "tables" / "prf.csv", pd.DataFrame({
        "system": ["oracle", "m1", "m2", "m3"], "prompt": ["rewrite"] * 4,
        "language": ["es"] * 4, "gender": ["masculine"] * 4, "category": ["overall"] * 4,
        "count": [100] * 4, "matches": [100, 80, 78, 40]}))
    values = {"oracle": 100.0, "m1": 80.0, "m2": 78.0, "m3": 40.0}
    _write(res / "gate" / "tables" / "intervals.csv", pd.DataFrame([
        {"figure": "accuracy", "system": s, "prompt": "rewrite", "value": v,
         "ci_low": v - 5, "ci_high": v + 5, "n": 100, "unit": "row",
         "method": "percentile bootstrap", "resamples": 1000, "seed": 0, "level": 0.95}
        for s, v in values.items()]))
    p = {("oracle", "m1"): 0.001, ("oracle", "m2"): 0.001, ("oracle", "m3"): 0.001,
         ("m1", "m2"): 0.4, ("m1", "m3"): 0.001, ("m2", "m3"): 0.001}
    _write(res / "gate" / "tables" / "pairs.csv", pd.DataFrame([
        {"figure": "accuracy", "system_a": a, "prompt_a": "rewrite", "system_b": b,
         "prompt_b": "rewrite", "difference": values[a] - values[b], "ci_low": 0,
         "ci_high": 0, "p": pv} for (a, b), pv in p.items()]))
    return res


def test_scorecard_takes_intervals_n_and_the_lead_over_contenders(gate_results):
    card = build(gate_results, kinds={"oracle": "oracle"})
    fig = next(f for f in card.figures if f.key == "accuracy")
    assert fig.has_ci and "bootstrap over rows" in fig.interval
    cells = {s: card.cell(s, fig) for s in card.systems}
    assert cells["m1"].lead and cells["m2"].lead and cells["m3"].lead is False
    assert cells["oracle"].lead is None  # a reference point: never in the race
    assert (cells["m2"].ci_low, cells["m2"].ci_high, cells["m2"].n) == (73, 83, 100)
    record = {r["system"]: r for r in to_records(card)}
    assert record["m1"]["gate"]["accuracy_ci"] == [75, 85]
    assert record["m1"]["gate"]["accuracy_n"] == 100
    assert record["m1"]["gate"]["accuracy_lead"] is True
    assert "accuracy_lead" not in record["oracle"]["gate"]
    assert record["m3"]["gate"]["accuracy_lead"] is False
    assert "bootstrap" in card.legend().set_index("key").loc["accuracy", "interval"]
    # without kinds, the oracle is a contender and leads alone
    plain = build(gate_results)
    assert [s for s in plain.systems if plain.cell(s, fig).lead] == ["oracle"]


def test_scorecard_rejects_intervals_that_disagree_with_the_table(gate_results):
    path = gate_results / "gate" / "tables" / "intervals.csv"
    table = pd.read_csv(path)
    table.loc[0, "value"] = 55.0
    table.to_csv(path, index=False)
    with pytest.raises(Exception, match="value"):
        build(gate_results)


def test_cli_kinds_from_config(gate_results, tmp_path, capsys):
    config = tmp_path / "c.yaml"
    config.write_text("systems:\n  oracle: {backend: reference-oracle}\n  m1: {backend: stored}\n")
    assert main(["scorecard", "--results", str(gate_results), "--json", "--configfile",
                 str(config)]) == 0
    out = {r["system"]: r for r in json.loads(capsys.readouterr().out)}
    assert "accuracy_lead" not in out["oracle"]["gate"]
    assert out["m1"]["gate"]["accuracy_lead"] is True
    assert not math.isnan(out["m1"]["gate"]["accuracy_ci"][0])


def test_clean_share_carries_wilson_over_outputs(gate_results):
    from gendermt.analysis.resample import wilson

    _write(gate_results / "gate" / "tables" / "output_checks.csv", pd.DataFrame({
        "system": ["oracle", "m1", "m2", "m3"], "prompt": ["rewrite"] * 4,
        "items": [200] * 4, "ok": [200, 190, 200, 20], "clean_share": [1, 0.95, 1, 0.1]}))
    card = build(gate_results, kinds={"oracle": "oracle"}, bootstrap={"level": 0.9})
    fig = next(f for f in card.figures if f.key == "clean_share")
    cell = card.cell("m1", fig)
    low, high = wilson(190, 200, 0.9)
    assert (cell.ci_low, cell.ci_high, cell.n) == (pytest.approx(100 * low),
                                                   pytest.approx(100 * high), 200)
    assert fig.has_ci and "Wilson" in fig.interval and "90%" in fig.interval
    # m3 is below the clean-share floor: not a contender for the accuracy lead
    accuracy = next(f for f in card.figures if f.key == "accuracy")
    assert card.contenders(accuracy) == ["m1", "m2"]
    assert card.cell("m3", accuracy).lead is None


def test_mt_geneval_bleu_all_is_the_summary_mean_of_corpus_bleu(tmp_path):
    from gendermt.analysis.resample import Settings
    from gendermt.benchmarks.mt_geneval.evaluate import quality_rows
    from gendermt.benchmarks.mt_geneval.intervals import bleu_rows

    rng = np.random.default_rng(2)
    words = ["the", "doctor", "she", "he", "said", "nurse", "was", "tired", "happy", "a"]
    rows = []
    for lang in ("es", "fr"):
        for k in range(25):
            ref = " ".join(rng.choice(words, 8))
            rows.append({"item_id": f"{lang}-{k}", "tgt_lang": lang, "reference": ref,
                         "counterfactual_reference": ref, "set": "contextual",
                         "gender": "masculine", "pair_id": f"{lang}-{k}"})
    data = pd.DataFrame(rows)
    data_path = tmp_path / "data.parquet"
    data.to_parquet(data_path)
    runs, expected = [], {}
    for system in ("p", "q"):
        hyps = [r if rng.random() < 0.5 else " ".join(rng.choice(words, 7))
                for r in data["reference"]]
        path = tmp_path / f"{system}.parquet"
        data[["item_id"]].assign(hypothesis=hyps).to_parquet(path)
        runs.append({"system": system, "prompt": "baseline", "path": str(path)})
        quality = pd.DataFrame(quality_rows(data, pd.Series(hyps), ["bleu"]))
        overall = quality[(quality["set"] == "all") & (quality["reference"] == "correct")]
        expected[system] = overall["score"].mean()
    intervals, pairs = bleu_rows(runs, data_path, Settings(resamples=100))
    for row in intervals:
        assert row["value"] == pytest.approx(expected[row["system"]], abs=1e-9)
        assert row["ci_low"] <= row["value"] <= row["ci_high"] and row["n"] == 50
    assert len(pairs) == 1 and pairs[0]["difference"] == pytest.approx(
        expected["p"] - expected["q"], abs=1e-9)
