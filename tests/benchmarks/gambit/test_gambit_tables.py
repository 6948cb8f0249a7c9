"""GAMBIT's analyses on synthetic assignments with known answers (Pearson against scipy), their
guards, the written tables (no NaN anywhere) and the figures."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from gendermt.benchmarks.gambit import analyses
from gendermt.benchmarks.gambit.analyses import Run
from gendermt.benchmarks.gambit.figures import build_figures
from gendermt.benchmarks.gambit.tables import build_tables, write_frames

from ...conftest import ROOT


def make_run(model: str, lang: str, counts: dict[str, tuple[int, int, int]],
             system: str | None = None) -> Run:
    rows = []
    for code, (m, f, nc) in counts.items():
        for label, n in (("Masculine", m), ("Feminine", f), ("Not Clear", nc)):
            rows += [{"text_id": f"{code}-{label}-{i}", "isco": code, "label": label}
                     for i in range(n)]
    frame = pd.DataFrame(rows, columns=["text_id", "isco", "label"])
    return Run(model, system or model.lower(), lang, frame)


# p_f: 0, 1, 0.1, 0.2, 0.3, 0.5, 0.7, 0.8, 0.9, and one occupation only Not Clear
TABLE8 = {"1111": (5, 0, 0), "1112": (0, 5, 1), "1113": (9, 1, 0), "1114": (4, 1, 0),
          "1120": (7, 3, 0), "1211": (5, 5, 2), "1212": (3, 7, 0), "1213": (1, 4, 0),
          "1219": (1, 9, 0), "1221": (0, 0, 3)}


def test_extremes_counts_and_bounds():
    table = analyses.extremes_table([make_run("A", "fr", TABLE8)])
    row = table.iloc[0].to_dict()
    assert row["n_occupations"] == 9
    assert row["n_extreme"] == 4                      # 0, 1, 0.1, 0.9 (0.2, 0.8 are not <, >)
    assert (row["n_extreme_masculine"], row["n_extreme_feminine"]) == (2, 2)
    assert row["n_balanced"] == 3                     # 0.3, 0.5, 0.7 (closed bounds)
    assert row["n_one_gender"] == 2
    assert row["n_no_gendered"] == 1
    assert "1 occupation(s) with no gendered assignment" in row["note"]


def test_extremes_min_assignments_and_empty_run():
    table = analyses.extremes_table([make_run("A", "fr", TABLE8), make_run("B", "fr", {})],
                                    min_assignments=6)
    a, b = table.iloc[0], table.iloc[1]
    assert a["n_below_min"] == 4 and a["n_occupations"] == 5
    assert "fewer than 6 gendered" in a["note"]
    assert b["n_occupations"] == 0 and b["note"] == "no assignment"


STEREOTYPE4 = pd.DataFrame({
    "code": ["1111", "1113", "1120", "1211", "1212", "1219", "1221"],
    "rating": [1.5, 2.0, 4.0, 2.7, 6.0, 6.5, 3.5],
    "kept": [True, False, True, True, True, True, True]})
GROUPS = analyses.DEFAULT_SETTINGS["stereotype_groups"]


def test_stereotype_groups_pool_assignments_of_kept_codes():
    table = analyses.stereotype_table([make_run("A", "fr", TABLE8)], STEREOTYPE4, GROUPS)
    rows = table.set_index("group")
    # masculine: 1111 only (1113 is not kept): 5 M, 0 F
    assert rows.loc["masculine", "grape_m"] == pytest.approx(1.0)
    assert rows.loc["masculine", "n_codes"] == 1
    # neutral: 1120 (7, 3) and 1221 (0, 0, 3); 2.7 is in no group
    assert (rows.loc["neutral", "n_masculine"], rows.loc["neutral", "n_not_clear"]) == (7, 3)
    assert rows.loc["neutral", "grape_m"] == pytest.approx((0.7 - 0.5) / 0.5)
    # feminine: 1212 (3, 7) and 1219 (1, 9): p_m = 4/20
    assert rows.loc["feminine", "grape_m"] == pytest.approx((0.2 - 0.5) / 0.5)
    assert rows.loc["feminine", "rating_range"] == "> 5.5"
    assert (table["note"] == "").all()


def test_stereotype_group_guards():
    run = make_run("A", "fr", {"1111": (2, 0, 0)})
    table = analyses.stereotype_table([run], STEREOTYPE4, GROUPS).set_index("group")
    assert math.isnan(table.loc["feminine", "grape_m"])
    assert table.loc["feminine", "note"] == "empty group: no assignment of its occupations"
    ratings = STEREOTYPE4[STEREOTYPE4["rating"] < 5]
    table = analyses.stereotype_table([run], ratings, GROUPS).set_index("group")
    assert table.loc["feminine", "note"] == "empty group: no rated occupation in this range"
    table = analyses.stereotype_table([run], None, GROUPS)
    assert (table["note"] == "no stereotype ratings").all() and table["grape_m"].isna().all()


def random_counts(rng, codes, p_f):
    out = {}
    for code, p in zip(codes, p_f, strict=True):
        n = int(rng.integers(5, 30))
        f = int(round(p * n))
        out[code] = (n - f, f, int(rng.integers(0, 3)))
    return out


def test_correlations_against_scipy():
    rng = np.random.default_rng(3)
    groups = [f"{g}" for g in ("111", "121", "222", "233", "251", "261", "334", "512", "711",
                               "811")]
    codes = [g + "1" for g in groups] + [g + "2" for g in groups]
    counts = random_counts(rng, codes, rng.uniform(0, 1, len(codes)))
    counts["9991"] = (0, 0, 4)  # a group with no gendered assignment: left out
    run = make_run("A", "fr", counts)
    ratings = rng.uniform(1, 7, len(groups))
    kept = [True] * 8 + [False, True]
    stereotype3 = pd.DataFrame({"code": groups + ["999"], "rating": [*ratings, 4.0],
                                "kept": [*kept, True]})
    shares = rng.uniform(0, 1, len(groups))
    labour = {"fr": pd.DataFrame({"isco": groups[:-1], "female_share": shares[:-1]})}
    table = analyses.correlation_table([run], stereotype3, labour).set_index("target")

    def grape_f(group):
        m = sum(counts[c][0] for c in codes if c.startswith(group))
        f = sum(counts[c][1] for c in codes if c.startswith(group))
        return 2 * f / (m + f) - 1
    used = [g for g, k in zip(groups, kept, strict=True) if k]
    expected = stats.pearsonr([grape_f(g) for g in used], [ratings[groups.index(g)]
                                                           for g in used])
    row = table.loc["stereotype"]
    assert row["n"] == 9
    assert row["r"] == pytest.approx(expected.statistic)
    assert row["p_value"] == pytest.approx(expected.pvalue)
    ci = expected.confidence_interval()
    assert (row["ci_low"], row["ci_high"]) == (pytest.approx(ci.low), pytest.approx(ci.high))
    assert "1 group(s) without a gendered assignment left out" in row["note"]
    # real: the same kept groups, less the last one (no labour share)
    real_groups = used[:-1]
    expected = stats.pearsonr([grape_f(g) for g in real_groups],
                              [shares[groups.index(g)] for g in real_groups])
    row = table.loc["real"]
    assert row["n"] == 8 and row["r"] == pytest.approx(expected.statistic)
    assert "1 group(s) without a reference left out" in row["note"]


def test_correlation_guards():
    run = make_run("A", "el", {"1111": (3, 1, 0), "2221": (1, 3, 0)})
    stereotype3 = pd.DataFrame({"code": ["111", "222"], "rating": [2.0, 6.0],
                                "kept": [True, True]})
    table = analyses.correlation_table([run], stereotype3, {}).set_index("target")
    assert table.loc["stereotype", "note"].startswith("too few pairs (2")
    assert math.isnan(table.loc["stereotype", "r"])
    assert table.loc["real", "note"] == "no labour file for language 'el'"
    # zero variance: every group has the same p_f
    same = make_run("A", "el", {"1111": (1, 1, 0), "2221": (2, 2, 0), "3111": (3, 3, 0)})
    stereotype3 = pd.DataFrame({"code": ["111", "222", "311"], "rating": [2.0, 6.0, 3.0],
                                "kept": [True] * 3})
    table = analyses.correlation_table([same], stereotype3, {}).set_index("target")
    assert "zero variance" in table.loc["stereotype", "note"]
    table = analyses.correlation_table([same], None, {}).set_index("target")
    assert table.loc["stereotype", "note"] == "no stereotype ratings"


def two_language_runs():
    rng = np.random.default_rng(7)
    codes = [f"{2000 + 11 * i}" for i in range(30)]
    base = rng.uniform(0, 1, len(codes))
    fr = random_counts(rng, codes, base)
    el = random_counts(rng, codes[5:], np.clip(base[5:] + rng.normal(0, 0.2, 25), 0, 1))
    el["9999"] = (1, 1, 0)  # only in el
    other = random_counts(rng, codes, rng.uniform(0, 1, len(codes)))
    return [make_run("A", "fr", fr), make_run("A", "el", el), make_run("B", "fr", other)], \
        fr, el, other


def pf(counts):
    return {c: f / (m + f) for c, (m, f, _) in counts.items() if m + f}


def test_cross_lingual_against_scipy():
    runs, fr, el, _ = two_language_runs()
    table = analyses.cross_lingual_table(runs).set_index("model")
    a, b = pf(fr), pf(el)
    common = sorted(set(a) & set(b))
    expected = stats.pearsonr([a[c] for c in common], [b[c] for c in common])
    assert table.loc["A", "n"] == len(common) == 25
    assert table.loc["A", "r"] == pytest.approx(expected.statistic)
    assert (table.loc["A", "lang_a"], table.loc["A", "lang_b"]) == ("fr", "el")
    assert table.loc["B", "note"] == "no run in el" and math.isnan(table.loc["B", "r"])
    single = analyses.cross_lingual_table(runs[:1])
    assert single.iloc[0]["note"] == "only one target language: nothing to compare"


def test_intra_model_matrix_against_scipy():
    runs, fr, _, other = two_language_runs()
    runs.append(make_run("C", "fr", {"2000": (0, 3, 0), "2011": (0, 2, 0), "2022": (0, 1, 0)}))
    pairs = analyses.intra_model_pairs(runs)
    matrix = analyses.intra_model_matrix(pairs, "fr")
    assert list(matrix.index) == list(matrix.columns) == ["A", "B", "C"]
    a, b = pf(fr), pf(other)
    common = sorted(set(a) & set(b))
    expected = stats.pearsonr([a[c] for c in common], [b[c] for c in common]).statistic
    assert matrix.loc["A", "B"] == pytest.approx(expected) == matrix.loc["B", "A"]
    assert matrix.loc["A", "A"] == pytest.approx(1.0)
    # C assigns only feminine forms: zero variance, r undefined with a note
    assert math.isnan(matrix.loc["A", "C"])
    note = pairs[(pairs["model_a"] == "A") & (pairs["model_b"] == "C")]["note"].iloc[0]
    assert "zero variance" in note
    assert list(analyses.intra_model_matrix(pairs, "el").index) == ["A"]


def test_overall_table_rows_and_missing_labour():
    runs, *_ = two_language_runs()
    labour = {"fr": pd.DataFrame({"isco": ["2"], "female_share": [0.4]})}
    overall, groups = analyses.grape_tables(runs, labour, [4, 3], {"2000": "Title"})
    assert len(overall) == 3 * 2 * 2
    el_real = overall[(overall["lang"] == "el") & (overall["reference"] == "real")]
    assert el_real["grape_m"].isna().all()
    assert (el_real["note"] == "no labour file for language 'el'").all()
    fr_real = overall[(overall["lang"] == "fr") & (overall["reference"] == "real")]
    assert fr_real["reference_f"].tolist() == pytest.approx([0.4] * 4)
    assert groups.loc[groups["code"] == "2000", "title"].iloc[0] == "Title"
    assert set(groups["level"]) == {4, 3}


def test_write_frames_and_figures(tmp_path):
    runs, *_ = two_language_runs()
    runs.append(make_run("B", "el", {"2000": (0, 0, 2)}))  # nothing gendered in el
    labour = {"fr": pd.DataFrame({"isco": ["20", "21"], "female_share": [0.3, 0.0]})}
    stereotype4 = pd.DataFrame({"code": ["2000", "2011", "2022"], "rating": [1.0, 4.0, 6.0],
                                "kept": [True] * 3})
    stereotype3 = pd.DataFrame({"code": ["200", "201", "202", "203"],
                                "rating": [1.0, 4.0, 6.0, 3.0], "kept": [True] * 4})
    out = write_frames(runs, {}, labour, stereotype4, stereotype3, {}, tmp_path / "tables")
    names = {p.name for p in out.values()}
    for stem in ("grape", "grape_groups", "extremes", "stereotype_groups", "correlations",
                 "cross_lingual", "intra_model_pairs", "intra_model_fr", "intra_model_el"):
        assert {f"{stem}.csv", f"{stem}.md"} <= names
    for stem in ("grape_paper", "extremes_paper", "stereotype_groups_paper",
                 "correlations_paper"):
        assert {f"{stem}.csv", f"{stem}.md", f"{stem}.tex"} <= names
    for path in out.values():
        text = path.read_text(encoding="utf-8")
        assert "nan" not in text.lower().replace("nance", ""), path.name
    grape = pd.read_csv(tmp_path / "tables" / "grape.csv")
    assert list(grape.columns) == [*analyses.OVERALL_COLUMNS, "signature"]
    undefined = grape[grape["grape_m"].isna()]
    assert not undefined.empty and (undefined["note"].fillna("") != "").all()
    md = (tmp_path / "tables" / "grape_paper.md").read_text(encoding="utf-8")
    assert "ref=parity, French · m" in md and "n/a" in md
    figures = build_figures(tmp_path / "tables", tmp_path / "figures")
    assert {p.name for p in figures.values()} == {
        "intra_model_fr.png", "intra_model_fr.pdf", "intra_model_el.png",
        "intra_model_el.pdf", "grape_overview.png", "grape_overview.pdf"}
    assert all(p.stat().st_size > 1000 for p in figures.values())
    # the overview's jittered points are seeded: the same tables give the same figure
    first = (tmp_path / "figures" / "grape_overview.png").read_bytes()
    np.random.seed(12345)
    build_figures(tmp_path / "tables", tmp_path / "again")
    assert (tmp_path / "again" / "grape_overview.png").read_bytes() == first


def test_write_tables_from_files(tmp_path):
    pytest.importorskip("gendermt.benchmarks.gambit.references",
                        reason="references.py is built on the data branch")
    runs, *_ = two_language_runs()
    specs = []
    for run in runs:
        path = tmp_path / f"{run.model}-{run.lang}.csv"
        run.assignments.to_csv(path, index=False)
        specs.append({"model": run.model, "system": run.system, "lang": run.lang,
                      "assignments": str(path)})
    labour = tmp_path / "labour.csv"
    labour.write_text("isco,female_share\n20,0.3\n", encoding="utf-8")
    stereotype = tmp_path / "stereotype.csv"
    stereotype.write_text("occupation,rating,isco\nA,1.5,2000\nB,6.0,2011\nC,4.0,2022\n",
                          encoding="utf-8")
    isco = tmp_path / "isco.parquet"
    pd.DataFrame({"code": ["2000"], "level": [4], "title": ["Some title"]}).to_parquet(isco)
    out = build_tables(specs, isco, {"fr": labour}, stereotype,
                       analyses.DEFAULT_SETTINGS, tmp_path / "tables")
    groups = pd.read_csv(out["grape_groups_csv"], dtype={"code": str})
    assert groups.loc[groups["code"] == "2000", "title"].iloc[0] == "Some title"
    stereo = pd.read_csv(out["stereotype_groups_csv"])
    assert (stereo.loc[stereo["group"] == "masculine", "n_codes"] == 1).all()
    figures = build_figures(tmp_path / "tables", tmp_path / "figures")
    assert {p.name for p in figures.values()} == {
        f"{stem}.{ext}" for stem in ("intra_model_fr", "intra_model_el", "grape_overview")
        for ext in ("png", "pdf")}


def test_overview_names_example_references_and_its_real_points(tmp_path):
    import matplotlib.pyplot as plt

    from gendermt.benchmarks.gambit.figures import example_references, overview, read_tables

    runs, *_ = two_language_runs()
    labour = {"fr": pd.DataFrame({"isco": ["20", "21"], "female_share": [0.3, 0.4]})}
    write_frames(runs, {}, labour, None, None, {"overall_reference": "weighted"},
                 tmp_path / "tables")
    example = tmp_path / "labour-example-fr.csv"
    example.write_text("isco,female_share,source\n20,0.3,\"project-written example\"\n",
                       encoding="utf-8")
    real = tmp_path / "labour-fr.csv"
    real.write_text("isco,female_share,source\n20,0.3,EU-LFS 2023\n", encoding="utf-8")
    assert example_references([example, real]) == ["labour-example-fr.csv"]
    shipped = ROOT / "resources" / "gambit" / "references"
    assert len(example_references(sorted(shipped.glob("*.csv")))) == 3
    tables = read_tables(tmp_path / "tables")
    fig = overview(tables["grape"], tables["grape_groups"], tables["stereotype_groups"],
                   ["labour-example-fr.csv"])
    assert "EXAMPLE REFERENCE DATA" in fig._suptitle.get_text()
    assert "labour-example-fr.csv" in fig._suptitle.get_text()
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert "GRAPE_m vs real (labour) reference" in labels
    assert "real reference" not in labels
    plt.close(fig)
    fig = overview(tables["grape"], tables["grape_groups"], tables["stereotype_groups"])
    assert "EXAMPLE" not in fig._suptitle.get_text()
    plt.close(fig)


def test_stereotype_panel_dodges_equal_values():
    import matplotlib.pyplot as plt

    from gendermt.benchmarks.gambit.figures import overview

    overall = pd.DataFrame({"model": ["A", "B"], "lang": ["fr", "fr"], "level": [4, 4],
                            "reference": ["parity"] * 2, "grape_m": [1.0, 1.0]})
    groups = pd.DataFrame(columns=["level", "reference", "p_feminine", "model", "lang"])
    stereo = pd.DataFrame({"model": ["A", "B"], "lang": ["fr", "fr"],
                           "group": ["masculine"] * 2, "grape_m": [1.0, 1.0]})
    fig = overview(overall, groups, stereo)
    xs = [line.get_xdata()[0] for line in fig.axes[2].get_lines() if line.get_marker() != "None"
          and len(line.get_xdata()) == 1]
    assert len(xs) == 2 and xs[0] != xs[1]  # the same value, side by side
    plt.close(fig)
