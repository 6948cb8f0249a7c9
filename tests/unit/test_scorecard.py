"""The scorecard's pieces on small hand-made results folders: the gap bootstrap, blank cells,
the CLI and its errors."""

import json

import numpy as np
import pandas as pd
import pytest

from gendermt.cli import main
from gendermt.scorecard.build import build, to_records
from gendermt.scorecard.gap import bootstrap_gap_ci, paired_differences


def test_paired_differences_pair_by_example_and_drop_incomplete():
    scores = pd.DataFrame({"example_id": [1, 1, 2, 2, 3],
                           "gender": ["male", "inclusive", "male", "inclusive", "male"],
                           "score": [10.0, 4.0, 8.0, 8.0, 50.0]})
    assert sorted(paired_differences(scores, "male", "inclusive")) == [0.0, 6.0]
    assert len(paired_differences(scores, "male", "female")) == 0


def test_bootstrap_gap_ci_is_seeded_and_matches_a_direct_resampling():
    diffs = np.array([1.0, 2.0, 3.0, 10.0, -4.0])
    low, high = bootstrap_gap_ci(diffs, resamples=500, seed=7, level=0.9)
    assert (low, high) == bootstrap_gap_ci(diffs, resamples=500, seed=7, level=0.9)
    rng = np.random.default_rng(7)
    means = diffs[rng.integers(0, 5, size=(500, 5))].mean(axis=1)
    assert low == pytest.approx(np.quantile(means, 0.05))
    assert high == pytest.approx(np.quantile(means, 0.95))
    assert low < diffs.mean() < high


def test_bootstrap_gap_ci_constant_and_empty():
    assert bootstrap_gap_ci(np.full(8, 2.5)) == (2.5, 2.5)
    low, high = bootstrap_gap_ci(np.array([]))
    assert np.isnan(low) and np.isnan(high)
    with pytest.raises(ValueError):
        bootstrap_gap_ci(np.ones(3), level=1.5)


def _write(path, frame):
    path.parent.mkdir(parents=True, exist_ok=True)
    frame.to_csv(path, index=False)


@pytest.fixture
def results(tmp_path):
    """Two benchmarks: GATE (sys-a, sys-b) and Neo-GATE (sys-b only), hand-made tables."""
    res = tmp_path / "results"
    _write(res / "gate" / "tables" / "prf.csv", pd.DataFrame({
        "system": ["sys-a", "sys-a", "sys-a", "sys-b"], "prompt": ["rewrite"] * 4,
        "language": ["es", "es", "es", "fr"], "gender": ["masculine", "feminine", "feminine",
                                                          "masculine"],
        "category": ["overall", "overall", "PROF", "overall"],
        "count": [4, 6, 3, 5], "matches": [1, 6, 0, 0]}))
    _write(res / "neogate" / "tables" / "zeroshot.csv", pd.DataFrame({
        "system": ["sys-b"], "paradigm": ["schwa"], "prompt": ["zeroshot-schwa"],
        "cwa": [42.5], "misgeneration": [3.0]}))
    _write(res / "gambit" / "tables" / "grape.csv", pd.DataFrame({
        "model": ["sys-b"] * 4, "system": ["sys-b"] * 4, "lang": ["fr", "fr", "fr", "el"],
        "level": [4, 4, 3, 4], "reference": ["parity", "real", "parity", "parity"],
        "grape_m": [0.9, 0.5, 0.8, None], "grape_f": [-0.9, -0.6, -0.8, None],
        "note": ["", "", "", "no gendered assignment"]}))
    return res


def test_build_blank_where_not_run(results):
    card = build(results)
    assert card.benchmarks == ["neogate", "grape", "gate"]
    # GRAPE: parity at level 4 per language; undefined (no gendered assignment) stays NaN
    grape = card.wide().set_index("system")
    assert grape.loc["sys-b", "GAMBIT/GRAPE · GRAPE_m^parity (fr)"] == pytest.approx(0.9)
    assert np.isnan(grape.loc["sys-b", "GAMBIT/GRAPE · GRAPE_m^parity (el)"])
    assert np.isnan(grape.loc["sys-a", "GAMBIT/GRAPE · GRAPE_m^parity (fr)"])
    wide = card.wide().set_index("system")
    assert wide.loc["sys-a", "GATE · rewriting accuracy"] == pytest.approx(70.0)  # 7 / 10
    assert wide.loc["sys-b", "GATE · rewriting accuracy"] == 0
    assert np.isnan(wide.loc["sys-a", "Neo-GATE · CWA (schwa)"])
    assert wide.loc["sys-b", "Neo-GATE · CWA (schwa)"] == 42.5
    records = {r["system"]: r for r in to_records(card)}
    assert records["sys-a"]["neogate"] is None and records["sys-a"]["grape"] is None
    assert records["sys-b"]["neogate"] == {"run": "zeroshot-schwa", "cwa_schwa": 42.5,
                                           "misgeneration_schwa": 3.0, "low_quality": []}


def test_cli_json(results, capsys):
    assert main(["scorecard", "--results", str(results), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [r["system"] for r in out] == ["sys-b", "sys-a"]
    assert out[1]["gate"] == {"run": "rewrite", "accuracy": pytest.approx(70.0),
                              "low_quality": []}
    assert main(["scorecard", "--results", str(results)]) == 0
    assert "| sys-a |" in capsys.readouterr().out


def test_cli_errors_name_the_problem(tmp_path, results, capsys):
    assert main(["scorecard", "--results", str(tmp_path / "nowhere")]) == 2
    assert "no such results folder" in capsys.readouterr().err
    assert main(["scorecard", "--results", str(results), "--benchmarks", "conga"]) == 2
    assert "categories.csv" in capsys.readouterr().err
    (results / "gate" / "tables" / "prf.csv").write_text("system,prompt\nx,y\n")
    assert main(["scorecard", "--results", str(results), "--benchmarks", "gate"]) == 2
    assert "no column(s) category" in capsys.readouterr().err


def test_winomt_per_language_and_comet_gaps_without_item_scores(tmp_path):
    res = tmp_path / "results"
    _write(res / "winomt" / "tables" / "summary.csv", pd.DataFrame({
        "system": ["google", "google", "bing"], "lang": ["fr", "es", "fr"],
        "acc": [63.6, 53.1, 55.2], "delta_g": [6.4, 23.4, 16.1], "delta_s": [26.7, 21.3, 10.4]}))
    _write(res / "fairtranslate" / "tables" / "by_gender.csv", pd.DataFrame({
        "metric": ["comet"] * 3 + ["bleu"] * 3, "system": ["google"] * 6,
        "prompt": ["baseline"] * 6, "gender": ["male", "female", "inclusive"] * 2,
        "mean": [80.0, 75.0, 60.0, 30.0, 20.0, 10.0]}))
    card = build(res)
    assert card.benchmarks == ["fairtranslate", "winomt"]
    wide = card.wide().set_index("system")
    assert wide.loc["google", "WinoMT · ΔS (es)"] == 21.3
    assert np.isnan(wide.loc["bing", "WinoMT · accuracy (es)"])   # bing did not run es
    assert wide.loc["google", "FairTranslate · COMET male−inclusive"] == 20.0
    assert wide.loc["google", "FairTranslate · BLEU male−female"] == 10.0
    # no per-item scores in this folder: the gaps have no CI, and the notes say why
    assert np.isnan(wide.loc["google", "FairTranslate · BLEU male−female · CI low"])
    assert any("no per-item scores" in n for n in card.notes)
    records = {r["system"]: r for r in to_records(card)}
    assert records["bing"]["fairtranslate"] is None
    assert records["bing"]["winomt"]["acc_fr"] == 55.2
    assert records["bing"]["winomt"]["acc_es"] is None


def test_cli_benchmarks_takes_gambit_as_grape(results, capsys):
    # issue 24: folders, the config and the report say GAMBIT; the scorecard's key is grape
    assert main(["scorecard", "--results", str(results), "--benchmarks", "grape", "--json"]) == 0
    grape = json.loads(capsys.readouterr().out)
    for name in ("gambit", "GAMBIT", "gambit,neogate"):
        assert main(["scorecard", "--results", str(results), "--benchmarks", name,
                     "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert [r["grape"] for r in out] == [r["grape"] for r in grape]


def test_quality_beside_gaps_and_no_colour_below_the_floor(tmp_path):
    """A broken system (BLEU ~2, every gender variant missed alike) has a near-0 gap: the
    scorecard shows its BLEU beside the gap, marks the gap low quality and does not colour
    it as the best in its column."""
    from gendermt.scorecard.heatmap import cell_matrix, draw
    from gendermt.scorecard.write import markdown

    res = tmp_path / "results"
    _write(res / "fairtranslate" / "tables" / "by_gender.csv", pd.DataFrame({
        "metric": ["bleu"] * 6 + ["chrf"] * 6, "system": (["good"] * 3 + ["broken"] * 3) * 2,
        "prompt": ["baseline"] * 12, "gender": ["male", "female", "inclusive"] * 4,
        "mean": [40.0, 30.0, 20.0, 2.0, 2.1, 1.9, 60.0, 55.0, 50.0, 15.0, 15.0, 15.0]}))
    card = build(res)
    wide = card.wide().set_index("system")
    assert wide.loc["good", "FairTranslate · BLEU (all)"] == pytest.approx(30.0)
    assert wide.loc["broken", "FairTranslate · BLEU (all)"] == pytest.approx(2.0)
    assert wide.loc["broken", "FairTranslate · chrF (all)"] == pytest.approx(15.0)
    gap = next(f for f in card.figures if f.key == "bleu_male_minus_inclusive")
    assert gap.quality == "bleu_all"
    assert card.below_floor("broken", gap) and not card.below_floor("good", gap)
    quality = next(f for f in card.figures if f.key == "bleu_all")
    assert not card.below_floor("broken", quality)  # the quality itself is plain
    assert "(low quality)" in markdown(card).split("broken")[1].splitlines()[0]
    assert "Quality floors (scorecard.quality_floors): FairTranslate: bleu_all 10" in \
        markdown(card)
    # a higher floor set in config applies
    strict = build(res, floors={"bleu_all": 35})
    assert strict.below_floor("good", gap)
    raw, ranked, text = cell_matrix(card)
    j, i = card.figures.index(gap), card.systems.index("broken")
    assert raw[i, j] == pytest.approx(0.1) and np.isnan(ranked[i, j]) and "low q." in text[i][j]
    draw(card, tmp_path / "card.png", tmp_path / "card.pdf")
    assert (tmp_path / "card.png").stat().st_size > 0
