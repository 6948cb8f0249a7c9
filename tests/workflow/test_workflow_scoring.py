"""The default run's statistics and paper-layout tables (reads the session's default run):
the tests agree with scipy/statsmodels called directly on the same frame, and the paper tables
have the paper's row and column order and agree with the tidy tables."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from scipy import stats as sps

from .. import default_plan as plan
from ..workflow_support import Run

pytestmark = pytest.mark.workflow

FT = Path("results/default/fairtranslate")
GENDERS = ["female", "male", "inclusive"]
SYSTEMS = ["oracle-male", "oracle-female", "oracle-inclusive", "copy-source"]
PROMPTS = ["baseline", "moral", "linguistic", "moral_linguistic"]  # the paper's four
# every run of the default (config/config.yaml: the real LLMs run one prompt each)
RUNS = plan.runs("fairtranslate")
# the real LLMs on the baseline prompt: Table 1's "Mean" is over them
BASELINE_LLMS = [s for s in plan.llms("fairtranslate") if "baseline" in
                 plan.prompts_of("fairtranslate", s)]


def table(run: Run, name: str) -> pd.DataFrame:
    run.require_success()
    return pd.read_csv(run.path(FT / "tables" / name), keep_default_na=False, na_values=[""])


def cell_frame(run: Run, system: str, prompt: str, metric: str) -> pd.DataFrame:
    data = pd.read_parquet(run.path(FT / "data.parquet"))
    scores = pd.read_parquet(run.path(FT / "scores" / system / f"{prompt}.parquet"))
    scores = scores[scores["metric"] == metric]
    return scores.merge(data[["item_id", "example_id", "gender"]], on="item_id")


@pytest.mark.parametrize("system, metric", [("oracle-male", "bleu"), ("copy-source", "chrf")])
def test_gender_tests_equal_scipy_and_statsmodels_on_the_same_frame(default_run, system, metric):
    from statsmodels.stats.anova import AnovaRM

    tests = table(default_run, "gender_tests.csv")
    rows = tests[(tests["system"] == system) & (tests["prompt"] == "baseline")
                 & (tests["metric"] == metric)].set_index("test")
    frame = cell_frame(default_run, system, "baseline", metric)
    groups = [frame.loc[frame["gender"] == g, "score"] for g in GENDERS]

    one_way = rows.loc[rows.index.str.startswith("one-way ANOVA")].iloc[0]
    expected = sps.f_oneway(*groups)
    assert one_way["value"] == pytest.approx(expected.statistic, rel=1e-9)
    assert one_way["p_value"] == pytest.approx(expected.pvalue, rel=1e-6)

    rm = rows.loc[rows.index.str.startswith("repeated-measures ANOVA")].iloc[0]
    direct = AnovaRM(frame[["example_id", "gender", "score"]], "score", "example_id",
                     within=["gender"]).fit().anova_table
    assert rm["value"] == pytest.approx(direct.loc["gender", "F Value"], rel=1e-9)
    assert rm["p_value"] == pytest.approx(direct.loc["gender", "Pr > F"], rel=1e-6)
    assert (rm["df1"], rm["df2"], rm["n"], rm["n_dropped"]) == (2, 34, 18, 0)
    assert 0 <= rm["eta_squared"] <= rm["partial_eta_squared"] <= 1

    tukey = rows.loc[rows.index.str.startswith("Tukey HSD")]
    assert len(tukey) == 3
    order = sorted(GENDERS)
    res = sps.tukey_hsd(*[frame.loc[frame["gender"] == g, "score"] for g in order])
    for row in tukey.itertuples():
        high, low = row.comparison.split(" − ")
        i, j = order.index(low), order.index(high)
        assert row.value == pytest.approx(groups[GENDERS.index(high)].mean()
                                          - groups[GENDERS.index(low)].mean(), rel=1e-9)
        assert row.p_value == pytest.approx(res.pvalue[i, j], rel=1e-3, abs=1e-6)


def test_every_p_value_row_names_its_test_and_is_holm_corrected(default_run):
    tests = table(default_run, "gender_tests.csv")
    # 1 + 1 + 3 Tukey rows per cell (metric × run)
    assert len(tests) == 2 * len(RUNS) * 5
    assert set(zip(tests["system"], tests["prompt"], strict=True)) == set(RUNS)
    assert tests["test"].str.contains("ANOVA|Tukey").all()
    for _, family in tests.groupby("test"):
        assert (family["p_holm"] >= family["p_value"] - 1e-15).all()
        assert family["p_holm"].max() <= 1
        smallest = family["p_value"].idxmin()
        assert family.loc[smallest, "p_holm"] == pytest.approx(
            min(1.0, family.loc[smallest, "p_value"] * len(family)))
    anova = table(default_run, "anova.csv")
    assert (anova["p_holm"] >= anova["p_value"]).all()


def test_bootstrap_intervals_hold_the_means(default_run):
    ci = table(default_run, "gender_means_ci.csv")
    by_gender = table(default_run, "by_gender.csv")
    merged = ci.merge(by_gender, on=["metric", "system", "prompt", "gender"],
                      suffixes=("", "_tidy"))
    assert len(merged) == len(by_gender) == len(ci)
    assert np.allclose(merged["mean"], merged["mean_tidy"])
    assert (merged["ci_low"] <= merged["mean"] + 1e-9).all()
    assert (merged["mean"] <= merged["ci_high"] + 1e-9).all()
    assert (ci["resamples"] == 1000).all() and (ci["level"] == 0.95).all()


def test_paper_table1_layout_and_values(default_run):
    t1 = table(default_run, "paper_table1.csv")
    columns = [*plan.systems("fairtranslate"), "Mean"]
    assert list(t1.columns) == ["Gender", *[f"{s} · {m}" for s in columns
                                            for m in ("sacreBLEU", "chrF")]]
    assert list(t1["Gender"]) == ["Female", "Male", "Inclusive"]
    note = default_run.path(FT / "tables" / "paper_table1.md").read_text(encoding="utf-8")
    # the models that did not run the baseline prompt (the base LLM, few-shot) are named as
    # left out of the Mean; with none on it the Mean column is empty, not a baseline's
    absent = [s for s in plan.llms("fairtranslate") if s not in BASELINE_LLMS]
    if absent:
        assert f"not run on `baseline`, so not in the Mean: {', '.join(absent)}" in note, note
    if not BASELINE_LLMS:
        assert t1["Mean · chrF"].isna().all() and t1["Mean · sacreBLEU"].isna().all()
        assert "none: empty" in note
    by_gender = table(default_run, "by_gender.csv").set_index(
        ["metric", "system", "prompt", "gender"])["mean"]
    for _, row in t1.iterrows():
        gender = row["Gender"].lower()
        for system in SYSTEMS:
            assert row[f"{system} · sacreBLEU"] == round(by_gender["bleu", system, "baseline",
                                                              gender], 2)
        # the paper's Mean is over its models: oracles and copy-source are left out
        if BASELINE_LLMS:
            mean = np.mean([by_gender["chrf", s, "baseline", gender] for s in BASELINE_LLMS])
            assert row["Mean · chrF"] == pytest.approx(mean, abs=0.0051)


@pytest.mark.parametrize("number, label, levels", [
    ("8", "Stereotype", ["Female-stereotyped", "Male-stereotyped", "Gender-balanced"]),
    ("9", "Ambiguity", ["Ambiguous", "Long Unambiguous", "Unambiguous"]),
])
def test_paper_tables_8_9_rows_in_the_paper_order(default_run, number, label, levels):
    t = table(default_run, f"paper_table{number}.csv")
    assert list(t.columns[:2]) == [label, "Gender"]
    assert list(t[label]) == [lv for lv in levels for _ in range(4)]
    assert list(t["Gender"]) == ["Female", "Male", "Inclusive", "Mean"] * 3
    # the table is the baseline prompt's: a system that did not run it (the base LLM, on its
    # few-shot prompt) has an empty column, every other a full one
    empty = {c.split(" · ")[0] for c in t.columns[2:] if t[c].isna().all()}
    # and the Mean column too where no model ran the baseline prompt
    assert empty == {s for s in plan.systems("fairtranslate")
                     if "baseline" not in plan.prompts_of("fairtranslate", s)} | (
        set() if BASELINE_LLMS else {"Mean"})
    for _, part in t.groupby(label):
        genders = part[part["Gender"] != "Mean"]
        mean = part[part["Gender"] == "Mean"]
        for column in t.columns[2:]:
            if column.split(" · ")[0] in empty:
                continue
            assert mean[column].item() == pytest.approx(genders[column].mean(), abs=0.011)


def test_paper_tables_2_6_7_and_the_formats(default_run):
    t2 = table(default_run, "paper_table2.csv")
    # the paper's four in its names, then the default's other prompts (the base LLM's
    # few-shot) as named in the config, capitalised
    paper = ["Baseline", "Moral", "Linguistic", "Moral & Ling."]
    others = [p[:1].upper() + p[1:] for p in plan.prompts("fairtranslate") if p not in PROMPTS]
    assert list(t2["Prompting"]) == paper + others
    assert list(t2.columns[1:4]) == ["oracle-male · Female", "oracle-male · Male",
                                     "oracle-male · Inclusive"]
    assert (t2["oracle-male · Male"][:len(PROMPTS)] == 100).all()  # the prompts it ran
    t7 = table(default_run, "paper_table7.csv")
    assert t7.shape == t2.shape
    t6 = table(default_run, "paper_table6.csv")
    assert list(t6.columns[1:3]) == ["oracle-male · sacreBLEU", "oracle-male · chrF"]
    # the oracle's p-values on the prompts it ran (blank on the base LLM's few-shot row)
    p_values = t6[t6["Prompting"].isin(t2["Prompting"][:len(PROMPTS)])]["oracle-male · sacreBLEU"]
    assert len(p_values) == len(PROMPTS)
    assert all(re.fullmatch(r"\d\.\de-\d+", v) for v in p_values.astype(str))
    for number in ("1", "2", "3", "6", "7", "8", "9"):
        md = default_run.path(FT / "tables" / f"paper_table{number}.md").read_text()
        tex = default_run.path(FT / "tables" / f"paper_table{number}.tex").read_text()
        assert md.startswith(f"# Table {number}:"), number
        assert "\\begin{tabular}" in tex and "\\bottomrule" in tex, number
        assert "\\multicolumn" in tex or number == "3", number
    tex6 = default_run.path(FT / "tables" / "paper_table6.tex").read_text()
    assert re.search(r"\$\d\.\d\\times 10\^\{-\d+\}\$", tex6)
    assert "Moral \\& Ling." in tex6
    t3 = table(default_run, "paper_table3.csv")
    assert list(t3.columns) == ["Variable", "Category", "Gender", "oracle-male · sacreBLEU",
                                "oracle-male · chrF"]
    assert list(t3["Variable"].unique()) == ["Stereotype", "Ambiguity"]


def test_comet_is_one_gpu_job_per_benchmark_over_every_run(tmp_path):
    """With comet and bertscore among the metrics (and TER, the authors' BLEU), a dry run
    plans one COMET and one BERTScore job for the benchmark, each reading every system ×
    prompt's translations; bertscore without its settings stops the run with a message."""
    from ..workflow_support import copy_project, explain, job_stats, output_of, snakemake

    workdir = copy_project(tmp_path / "project")
    config_file = workdir / "config" / "config.yaml"
    config = yaml.safe_load(config_file.read_text(encoding="utf-8"))
    config["benchmarks"]["fairtranslate"]["metrics"] = ["bleu_nltk_m4", "bleu", "chrf", "ter",
                                                        "comet", "bertscore"]
    config_file.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    proc = snakemake(workdir, "-n", "--cores", "2")
    assert proc.returncode != 0
    assert "scoring.bertscore" in output_of(proc) and "num_layers" in output_of(proc)
    config["scoring"]["bertscore"] = {"model": "some/bert", "num_layers": 9}
    config_file.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    proc = snakemake(workdir, "-n", "--cores", "2", "--resources", "gpu=1")
    assert proc.returncode == 0, explain(proc)
    text = output_of(proc)
    stats = job_stats(text)
    assert stats["comet"] == stats["bertscore"] == 1
    assert stats["score"] == len(RUNS)
    block = text[text.index("rule comet:"):].split("\n\n", 1)[0]
    assert "results/default/fairtranslate/scores/comet.parquet" in block
    for system, prompt in RUNS:
        assert f"results/default/fairtranslate/translations/{system}/{prompt}.jsonl" in block
    assert "gpu=1" in block.replace(" ", "")
    block = text[text.index("rule bertscore:"):].split("\n\n", 1)[0]
    assert "results/default/fairtranslate/scores/bertscore.parquet" in block
    assert "results/default/fairtranslate/translations/copy-source/moral.jsonl" in block


def test_metrics_are_named_as_they_are_and_p_values_stay_readable(default_run):
    """sacreBLEU is never a bare "BLEU" in FairTranslate's tables; the tidy CSVs keep their
    `metric` column and gain `metric_label`; tiny p-values print in scientific notation."""
    by_gender = table(default_run, "by_gender.csv")
    # added last, in the order they came: the others keep their place
    assert list(by_gender.columns[-2:]) == ["metric_label", "signature"]
    assert dict(zip(by_gender["metric"], by_gender["metric_label"], strict=True)) == {
        "bleu": "sacreBLEU", "chrf": "chrF"}
    bare = re.compile(r"(?<!sacre)(?<!NLTK )\bBLEU\b(?!-m4)")
    for path in sorted(default_run.path(FT / "tables").glob("*")):
        if path.suffix in (".md", ".tex") or path.name.startswith("paper_table"):
            assert not bare.search(path.read_text(encoding="utf-8")), path
    tests_md = default_run.path(FT / "tables" / "gender_tests.md").read_text(encoding="utf-8")
    rows = [line.split("|") for line in tests_md.splitlines() if "ANOVA" in line]
    p_values = [cells[7].strip() for cells in rows]
    assert p_values and all(re.fullmatch(r"\d\.\d\de[-+]\d+", p) for p in p_values), p_values
    assert "e-14" in tests_md  # oracle-male's repeated-measures p-value, not 0.000
    clean = table(default_run, "clean_outlier.csv")
    assert (clean["dropped"] == 0).all() and not clean["enabled"].any()
    assert "filter is off" in default_run.path(FT / "tables" / "by_gender.md").read_text()


def test_clean_outlier_without_comet_stops_at_parse_time(tmp_path):
    """The authors' filter keeps rows by COMET: enabled without COMET, or naming a system the
    benchmark does not run, the workflow stops before any job, saying why."""
    from ..workflow_support import copy_project, output_of, snakemake

    workdir = copy_project(tmp_path / "project")
    config_file = workdir / "config" / "config.yaml"
    config = yaml.safe_load(config_file.read_text(encoding="utf-8"))
    ft = config["benchmarks"]["fairtranslate"]
    for setting, message in (({"enabled": True}, "`comet` is not among the metrics"),
                             ({"enabled": False, "systems": ["nobody"]}, "names nobody")):
        ft["clean_outlier"] = setting
        config_file.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
        proc = snakemake(workdir, "-n", "--cores", "1")
        assert proc.returncode != 0 and message in output_of(proc), output_of(proc)[-2000:]
