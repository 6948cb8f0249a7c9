"""The scorecard in the session's default run: its values are the benchmarks' own tables."""

import json
import math
import re

import numpy as np
import pandas as pd
import pytest
import yaml

from gendermt.analysis.resample import wilson
from gendermt.cli import main

from .. import default_plan as plan
from ..conftest import ROOT

SC = "results/default/scorecard"
CONFIG = yaml.safe_load((ROOT / "config" / "config.yaml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def run(default_run):
    default_run.require_success()
    return default_run


@pytest.fixture(scope="module")
def card(run):
    return pd.read_csv(run.path(f"{SC}/scorecard.csv")).set_index("system")


@pytest.fixture(scope="module")
def records(run):
    return {r["system"]: r for r in json.loads(run.path(f"{SC}/scorecard.json").read_text())}


def close(a, b):
    # tables keep 10 significant digits (gendermt.data.io.TABLE_DIGITS)
    return (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b, rel=1e-9, abs=1e-12)


def test_outputs_and_every_default_benchmark(run, card):
    for ext in ("csv", "md", "tex", "json", "png", "pdf"):
        assert run.path(f"{SC}/scorecard.{ext}").stat().st_size > 0
    from gendermt.core import registry

    # every configured benchmark on the scorecard has columns under its label
    for bench in CONFIG["benchmarks"]:
        part = registry.get(bench).scorecard
        if part is not None:
            assert any(c.startswith(f"{part.label} ·") for c in card.columns), bench
    assert {c.split(" · ")[0] for c in card.columns} >= {
        "FairTranslate", "GATE X-E", "GATE", "ConGA", "Neo-GATE", "GAMBIT/GRAPE"}
    # GRAPE: the masculine-default system is as far from parity as a system can be (all
    # gendered forms masculine: p_m = 1, GRAPE_m = 1)
    assert card.loc["gambit-masculine-default", "GAMBIT/GRAPE · GRAPE_m^parity (fr)"] == 1
    # one row per configured system that ran something, in config order
    assert list(card.index) == [s for s in CONFIG["systems"] if s in card.index]
    assert set(card.index) == {s for b in CONFIG["benchmarks"].values()
                               for s in [*b["systems"],
                                         *sum(b.get("paradigm_systems", {}).values(), [])]}


def test_fairtranslate_gaps_equal_by_gender(run, card, records):
    table = pd.read_csv(run.path("results/default/fairtranslate/tables/by_gender.csv"))
    for system in CONFIG["benchmarks"]["fairtranslate"]["systems"]:
        # each system's row is its headline run: the first of the benchmark's prompts it ran
        # (the base LLM's few-shot; the others' baseline)
        headline = plan.prompts_of("fairtranslate", system)[0]
        assert records[system]["fairtranslate"]["run"] == headline, system
        base = table[table["prompt"] == headline]
        means = base[(base["system"] == system) & (base["metric"] == "bleu")].set_index(
            "gender")["mean"]
        for other in ("inclusive", "female"):
            col = f"FairTranslate · BLEU male−{other}"
            assert close(card.loc[system, col], means["male"] - means[other])
            low, high = card.loc[system, f"{col} · CI low"], card.loc[system, f"{col} · CI high"]
            assert low <= card.loc[system, col] <= high
    # the oracles' gaps have the signs their references imply
    assert card.loc["oracle-male", "FairTranslate · BLEU male−inclusive"] > 0
    assert card.loc["oracle-inclusive", "FairTranslate · BLEU male−inclusive"] < 0


def test_neogate_equals_zeroshot_table(run, card):
    table = pd.read_csv(run.path("results/default/neogate/tables/zeroshot.csv"))
    assert len(table)
    for row in table.itertuples():
        assert close(card.loc[row.system, f"Neo-GATE · CWA ({row.paradigm})"], row.cwa)
        assert close(card.loc[row.system, f"Neo-GATE · mis-generation ({row.paradigm})"],
                     row.misgeneration)
    # a paradigm's oracle did not run the other paradigm: blank, not 0
    assert np.isnan(card.loc["oracle-asterisk", "Neo-GATE · CWA (schwa)"])


def test_conga_equals_its_tables(run, card, records):
    cats = pd.read_csv(run.path("results/default/conga/tables/categories.csv"))
    mets = pd.read_csv(run.path("results/default/conga/tables/metrics.csv"))
    for system in CONFIG["benchmarks"]["conga"]["systems"]:
        counts = cats[cats["system"] == system].set_index("category")["count"]
        total = counts["bias_a_to_m"] + counts["bias_a_to_f"]
        share = 100 * counts["bias_a_to_m"] / total if total else math.nan
        assert close(card.loc[system, "ConGA · A→M share"], share)
        for g in ("M", "F"):
            f1 = mets[(mets["system"] == system) & (mets["gender"] == g)]["f1"].iloc[0]
            assert close(card.loc[system, f"ConGA · F1 {g}"], f1)
    # conga-oracle-first sends all 6 ambiguous entities to the masculine (hand count)
    assert card.loc["conga-oracle-first", "ConGA · A→M share"] == 100
    # copy-source ran ConGA but has no annotated output: undefined (null), not "did not run";
    # its English copies (9 of 10) are wrong-language outputs: low quality
    # (its clean share with Wilson's interval over its 10 outputs, issue 48)
    low, high = wilson(1, 10, 0.95)
    assert records["copy-source"]["conga"] == {"run": "baseline", "a_to_m_share": None,
                                               "f1_m": None, "f1_f": None,
                                               "clean_share": pytest.approx(10.0),
                                               "clean_share_ci": [pytest.approx(100 * low),
                                                                  pytest.approx(100 * high)],
                                               "clean_share_n": 10,
                                               "low_quality": ["clean_share"]}


def test_gate_and_gate_x_e_equal_their_tables(run, card):
    acc = pd.read_csv(run.path("results/default/gate-x-e/tables/accuracy.csv"))
    acc = acc[(acc["subtype"] == "Overall") & (acc["requested"] != "Neut (relaxed)")]
    prf = pd.read_csv(run.path("results/default/gate/tables/prf.csv"))
    prf = prf[prf["category"] == "overall"]
    for system, rows in acc.groupby("system"):
        assert close(card.loc[system, "GATE X-E · rewriting accuracy"],
                     100 * rows["correct"].sum() / rows["n"].sum())
    for system, rows in prf.groupby("system"):
        assert close(card.loc[system, "GATE · rewriting accuracy"],
                     100 * rows["matches"].sum() / rows["count"].sum())
    assert card.loc["oracle-rewriter", "GATE · rewriting accuracy"] == 100


def test_blank_where_a_system_did_not_run(card, records):
    assert np.isnan(card.loc["oracle-female", "GATE · rewriting accuracy"])
    assert np.isnan(card.loc["rule-rewriter", "FairTranslate · BLEU male−inclusive"])
    assert records["rule-rewriter"]["fairtranslate"] is None
    assert records["rule-rewriter"]["grape"] is None
    assert records["oracle-rewriter"]["gate"]["accuracy"] == 100


def test_markdown_and_latex_state_units_and_direction(run):
    md = run.path(f"{SC}/scorecard.md").read_text(encoding="utf-8")
    assert "better: closer to 0; run: baseline" in md and "GRAPE_m^parity (fr)" in md
    tex = run.path(f"{SC}/scorecard.tex").read_text(encoding="utf-8")
    assert "\\begin{tabular}" in tex and "\\multicolumn" in tex and "% FairTranslate" in tex
    row = next(line for line in md.splitlines() if line.startswith("| oracle-male "))
    assert re.search(r"\| 32\.78 \[\d+\.\d\d, \d+\.\d\d\] \|", row)


def test_cli_json_equals_the_workflow(run, records, capsys):
    assert main(["scorecard", "--results", str(run.path("results/default")), "--json"]) == 0
    printed = {r["system"]: r for r in json.loads(capsys.readouterr().out)}
    from gendermt.data.json_output import rounded

    # the workflow's JSON keeps 10 significant digits (gendermt.data.io.TABLE_DIGITS), the command
    # line's its own rounding: the same figures to that precision
    def flat(obj, key=""):
        if isinstance(obj, dict):
            return {k: v for name, value in obj.items()
                    for k, v in flat(value, f"{key}.{name}").items()}
        if isinstance(obj, list):
            return {k: v for i, value in enumerate(obj)
                    for k, v in flat(value, f"{key}[{i}]").items()}
        return {key: obj}

    ours, theirs = flat(printed), flat(rounded(records))
    assert ours.keys() == theirs.keys()
    for key, value in ours.items():
        if isinstance(value, float):
            assert value == pytest.approx(theirs[key], rel=1e-9, abs=1e-9), key
        else:
            assert value == theirs[key], key


def test_report_leads_with_the_scorecard(run):
    from ..workflow_support import RUN_TIMEOUT, snakemake

    report = run.path("report.html")
    proc = snakemake(run.workdir, "--report", str(report), timeout=RUN_TIMEOUT)
    assert proc.returncode == 0, proc.stderr
    html = report.read_text(encoding="utf-8")
    cats = json.loads(re.search(r"var categories = (\{.*?\});\n", html).group(1))
    assert "results/default/scorecard/scorecard.html" in cats["All benchmarks"]["Scorecard"]
    # the menu sorts categories with localeCompare: "All benchmarks" comes first
    assert sorted(cats, key=str.casefold)[0] == "All benchmarks"
    assert "then the <strong>scorecard</strong>" in html


def test_gap_ci_is_the_paired_bootstrap_of_the_item_scores(run, card):
    """Recompute one CI independently: per-item BLEU of the baseline run, male and inclusive
    rows joined on example_id, resampled with the configured seed."""
    data = pd.read_parquet(run.path("results/default/fairtranslate/data.parquet"))
    scores = pd.read_parquet(run.path("results/default/fairtranslate/scores/oracle-female/baseline"
                                      ".parquet"))
    scores = scores[scores["metric"] == "bleu"].merge(data[["item_id", "example_id", "gender"]],
                                                      on="item_id")
    male = scores[scores["gender"] == "male"].set_index("example_id")["score"]
    incl = scores[scores["gender"] == "inclusive"].set_index("example_id")["score"]
    diffs = (male - incl).dropna().to_numpy()
    settings = CONFIG["statistics"]["bootstrap"]
    rng = np.random.default_rng(settings["seed"])
    means = diffs[rng.integers(0, len(diffs), size=(settings["resamples"], len(diffs)))].mean(1)
    alpha = (1 - settings["level"]) / 2
    col = "FairTranslate · BLEU male−inclusive"
    assert card.loc["oracle-female", f"{col} · CI low"] == pytest.approx(
        np.quantile(means, alpha))
    assert card.loc["oracle-female", f"{col} · CI high"] == pytest.approx(
        np.quantile(means, 1 - alpha))
    assert card.loc["oracle-female", col] == pytest.approx(diffs.mean())
