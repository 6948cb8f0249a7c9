"""MT-GenEval in the session's default run (the `default_run` fixture): its jobs, the oracles
at the metric's extremes (1.0 and 0.0), the real LLM's run, tables, figure, scorecard columns
and report labels; and the study config's whole DAG over the shared data (a dry run)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest
import yaml

from gendermt.cli import main

from .. import default_plan as plan
from ..conftest import ROOT
from ..workflow_support import copy_project, explain, job_stats, output_of, planned_jobs, snakemake

pytestmark = pytest.mark.workflow

MTG = Path("results/default/mt-geneval")
CONFIG = yaml.safe_load((ROOT / "config" / "config.yaml").read_text(encoding="utf-8"))
BLOCK = CONFIG["benchmarks"]["mt-geneval"]
SYSTEMS = BLOCK["systems"]
LANGS = BLOCK["data"]["languages"]
# each system's one prompt in the default (the base LLM's is few-shot)
PROMPT = {s: (BLOCK.get("system_prompts") or {}).get(s, BLOCK["prompts"])[0] for s in SYSTEMS}
LLM = plan.llms("mt-geneval")[0]  # the default's real LLM here
SHARED = ROOT.parent / "shared" / "data" / "mt-geneval"


@pytest.fixture(scope="module")
def run(default_run):
    default_run.require_success()
    return default_run


def table(run, name: str) -> pd.DataFrame:
    return pd.read_csv(run.path(MTG / "tables" / f"{name}.csv"))


def test_jobs(run):
    jobs = planned_jobs(output_of(run.proc))
    rules = [rule for rule, _ in jobs]
    for rule in ("mt_geneval_data", "mt_geneval_tables", "mt_geneval_figures"):
        assert rules.count(rule) == 1, rule
    # one request file per prompt a system runs
    assert rules.count("mt_geneval_inputs") == len(set(PROMPT.values()))
    assert rules.count("mt_geneval_score") == len(SYSTEMS)
    ours = [wc for rule, wc in jobs if wc.get("benchmark") == "mt-geneval"]
    assert sorted(wc["system"] for wc in ours if "system" in wc) == sorted(SYSTEMS * 2)
    # the generic translate and extract serve it; its inputs and scoring are its own
    assert not [wc for rule, wc in jobs
                if rule in ("build_inputs", "score") and wc.get("benchmark") == "mt-geneval"]


def test_oracles_score_one_and_zero(run):
    summary = table(run, "summary").set_index(["system", "lang"])
    accuracies = ["counterfactual_accuracy", "accuracy_masculine", "accuracy_feminine",
                  "contextual_accuracy"]
    for lang in LANGS:
        right = summary.loc[("mt-geneval-oracle", lang)]
        assert right[accuracies].tolist() == [1.0] * 4 and right["accuracy_gap"] == 0
        assert right["bleu"] == pytest.approx(100)
        wrong = summary.loc[("mt-geneval-counterfactual", lang)]
        assert wrong[accuracies[:3]].tolist() == [0.0] * 3
    # the counterfactual oracle's contextual accuracy is 0 but on the sample's epicene French
    # item, whose original and flipped references are the same (the metric counts it correct)
    assert summary.loc[("mt-geneval-counterfactual", "de"), "contextual_accuracy"] == 0.0
    assert summary.loc[("mt-geneval-counterfactual", "fr"), "contextual_accuracy"] == \
        pytest.approx(1 / 6)


def test_the_real_llm_ran_every_segment(run):
    data = pd.read_parquet(run.path(MTG / "data.parquet"))
    items = pd.read_parquet(run.path(MTG / f"items/{LLM}/{PROMPT[LLM]}.parquet"))
    assert len(items) == len(data) == len(LANGS) * 18
    assert items["hypothesis"].str.strip().ne("").all()
    summary = table(run, "summary").set_index(["system", "lang"])
    for lang in LANGS:
        row = summary.loc[(LLM, lang)]
        for column in ("counterfactual_accuracy", "contextual_accuracy", "accuracy_masculine",
                       "accuracy_feminine"):
            assert 0 <= row[column] <= 1
    inputs = [json.loads(line) for line in
              run.path(MTG / "inputs/baseline.jsonl").read_text(encoding="utf-8").splitlines()]
    ctx = [r for r in inputs if "-ctx-" in r["item_id"]]
    assert ctx and all("Context: " in r["messages"][-1]["content"] for r in ctx)
    # the LLM was shown the context sentence; the reference points read the sentence alone
    assert summary.loc[(LLM, LANGS[0]), "context_shown"] == True  # noqa: E712
    assert summary.loc[("mt-geneval-oracle", LANGS[0]), "context_shown"] == False  # noqa: E712


def test_tables_agree_with_the_command_line(run, tmp_path, capsys):
    """The workflow's accuracies equal `gendermt score mt-geneval` on the same outputs."""
    items = pd.read_parquet(run.path(MTG / f"items/{LLM}/{PROMPT[LLM]}.parquet"))
    accuracy = table(run, "accuracy").set_index(["system", "lang", "set"])
    for lang in LANGS:
        part = items[(items["tgt_lang"] == lang) & (items["set"] == "counterfactual")]
        files = {}
        for gender in ("masculine", "feminine"):
            lines = part[part["gender"] == gender].sort_values("line")["hypothesis"]
            files[gender] = tmp_path / f"{lang}-{gender}.txt"
            files[gender].write_text("".join(h.replace("\n", " ") + "\n" for h in lines),
                                     encoding="utf-8")
        assert main(["score", "mt-geneval", "--data", str(run.path("resources/mt-geneval")),
                     "--lang", lang, "--split", "test", "--set", "counterfactual",
                     "--hyp-masculine", str(files["masculine"]),
                     "--hyp-feminine", str(files["feminine"]), "--json"]) == 0
        printed = json.loads(capsys.readouterr().out)
        row = accuracy.loc[(LLM, lang, "counterfactual")]
        assert printed["accuracy"] == pytest.approx(row["accuracy"], abs=1e-4)
        assert printed["accuracy_feminine"] == pytest.approx(row["accuracy_feminine"], abs=1e-4)


def test_every_target_is_written(run):
    for name in ("accuracy", "paper", "quality", "summary"):
        for ext in ("csv", "md"):
            assert run.path(MTG / "tables" / f"{name}.{ext}").stat().st_size > 0
    paper = table(run, "paper")
    assert len(paper) == len(SYSTEMS)
    assert {f"{lang} counterfactual feminine" for lang in LANGS} <= set(paper.columns)
    quality = table(run, "quality")
    assert set(quality["reference"]) == {"correct", "counterfactual"}
    assert set(quality["metric"]) == set(BLOCK["metrics"])
    assert run.path(MTG / "figures/accuracy.png").read_bytes().startswith(b"\x89PNG")
    assert run.path(MTG / "figures/accuracy.pdf").read_bytes().startswith(b"%PDF")
    for system in SYSTEMS:
        assert run.path(MTG / f"items/{system}/{PROMPT[system]}.csv").stat().st_size > 0


def test_scorecard_columns(run):
    card = pd.read_csv(run.path("results/default/scorecard/scorecard.csv")).set_index("system")
    for lang in LANGS:
        gap = f"MT-GenEval · counterfactual gap ({lang})"
        ctx = f"MT-GenEval · contextual accuracy ({lang})"
        assert card.loc["mt-geneval-oracle", gap] == 0
        assert card.loc["mt-geneval-oracle", ctx] == 100
        # the authors' official figure beside the gap: the oracle gets every pair right
        official = f"MT-GenEval · counterfactual accuracy ({lang})"
        assert card.loc["mt-geneval-oracle", official] == 100
    assert card.loc["copy-source", "MT-GenEval · BLEU (all)"] < 10  # marked low quality
    legend = pd.read_csv(run.path("results/default/scorecard/legend.csv"))
    ours = legend[legend.iloc[:, 0].astype(str).str.startswith("MT-GenEval")]
    # BLEU, then per language the gap, the counterfactual accuracy, contextual accuracy and
    # their correct-word rates, then the clean-output share
    assert len(ours) == 1 + 5 * len(LANGS) + 1


def test_study_config_dry_runs_on_the_shared_data(tmp_path):
    if not SHARED.is_dir():
        pytest.skip("the shared MT-GenEval data is not beside the clone")
    project = copy_project(tmp_path / "project")
    (tmp_path / "shared").symlink_to(ROOT.parent / "shared")
    proc = snakemake(project, "-n", "--configfile", "config/study/systems.yaml",
                     "config/study/mt-geneval.yaml")
    assert proc.returncode == 0, explain(proc)
    study = yaml.safe_load((ROOT / "config/study/mt-geneval.yaml").read_text(encoding="utf-8"))
    n = len(study["benchmarks"]["mt-geneval"]["systems"])
    stats = job_stats(output_of(proc))
    assert stats["translate"] == n and stats["mt_geneval_score"] == n
    assert stats["mt_geneval_data"] == 1 and stats["mt_geneval_tables"] == 1
    shutil.rmtree(project)
