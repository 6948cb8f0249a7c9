"""The default's real LLM in the DAG: which runs it gets (system_prompts, paradigm systems),
the overlay that runs it everywhere, per-benchmark decoding overrides checked at start-up,
translate jobs' threads; and, from the session's default run, its outputs with finish
reasons, its provenance (the GGUF's sha256) and its scorecard row."""

from __future__ import annotations

import json
from collections import Counter

import pandas as pd
import pytest
import yaml

from gendermt.scoring.output_quality import CLEAN_SHARE_FLOOR

from ..conftest import ROOT
from ..workflow_support import copy_project, explain, output_of, planned_jobs, snakemake

pytestmark = pytest.mark.workflow

LLM = "smollm2-135m"
BASE_LLM = "gemma3-270m"  # the base model, few-shot
CONFIG = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    return copy_project(tmp_path_factory.mktemp("smollm2") / "project", share_cache=False)


def llm_runs(text: str) -> Counter:
    return Counter(wc["benchmark"] for rule, wc in planned_jobs(text)
                   if rule == "translate" and wc.get("system") == LLM)


def test_the_default_runs_the_llm_where_it_is_listed_and_the_overlay_on_all(project):
    proc = snakemake(project, "-n", "--cores", "2")
    assert proc.returncode == 0, explain(proc)
    runs = llm_runs(output_of(proc))
    # Neo-GATE: the asterisk runs (3, paradigm_systems); ConGA: its one prompt; FairTranslate
    # and GATE leave it to the overlay (Gemma translates FairTranslate in the default)
    assert {b: runs[b] for b in ("fairtranslate", "neogate", "gate", "conga")} == {
        "fairtranslate": 0, "neogate": 3, "gate": 0, "conga": 1}
    # and every other benchmark whose systems (or a paradigm's) list it: a new benchmark
    # edits no test
    assert set(runs) == {b for b, spec in CONFIG["benchmarks"].items()
                         if LLM in spec["systems"] + sum(spec.get("paradigm_systems", {}).values(),
                                                         [])}
    proc = snakemake(project, "-n", "--cores", "2", "--configfile", "config/config.yaml",
                     "config/smollm2-all.yaml")
    assert proc.returncode == 0, explain(proc)
    runs = llm_runs(output_of(proc))
    assert {b: runs[b] for b in ("fairtranslate", "neogate", "gate", "conga", "gate-x-e",
                                 "gambit")} == {"fairtranslate": 4, "neogate": 6, "gate": 1,
                                                "conga": 1, "gate-x-e": 1, "gambit": 2}
    assert set(runs) == set(CONFIG["benchmarks"])  # the overlay: every benchmark
    # the base LLM (Gemma) where it translates, on its few-shot prompt, in the overlay as in
    # the default
    gemma = {(wc["benchmark"], wc["prompt"]) for rule, wc in planned_jobs(output_of(proc))
             if rule == "translate" and wc.get("system") == BASE_LLM}
    assert gemma == {("fairtranslate", "fewshot"), ("mt-geneval", "fewshot")}


def test_the_default_runs_the_base_llm_few_shot_where_it_translates(project):
    proc = snakemake(project, "-n", "--cores", "2")
    assert proc.returncode == 0, explain(proc)
    gemma = {(wc["benchmark"], wc["prompt"]) for rule, wc in planned_jobs(output_of(proc))
             if rule == "translate" and wc.get("system") == BASE_LLM}
    assert gemma == {("fairtranslate", "fewshot"), ("mt-geneval", "fewshot")}
    # plain text, one answer a line, a small token budget: the stop string ends each answer
    settings = CONFIG["systems"][BASE_LLM]
    assert settings["chat_template"] == "none" and settings["stop"] == ["\n"]
    assert settings["max_new_tokens"] <= 64


def test_translate_jobs_take_the_systems_threads(project):
    (project / "config" / "threads.yaml").write_text(yaml.safe_dump(
        {"systems": {LLM: {**CONFIG["systems"][LLM], "threads": 2}}}))
    proc = snakemake(project, "results/default/conga/translations/smollm2-135m/baseline.jsonl",
                     "-n", "--cores", "2", "--configfile", "config/config.yaml",
                     "config/threads.yaml")
    assert proc.returncode == 0, explain(proc)
    job = output_of(proc).split("rule translate:")[1].split("\n\n")[0]
    assert "threads: 2" in job, job


def test_bad_overrides_and_run_subsets_stop_at_start_up(project):
    for overlay, message in [
            ({"benchmarks": {"gate-x-e": {"decoding": {LLM: {"num_beams": 4}}}}},
             r"benchmarks.gate-x-e.decoding.smollm2-135m: backend 'hf-causal' has no "
             r"setting(s) ['num_beams']"),
            ({"benchmarks": {"gate-x-e": {"decoding": {"nope": {"max_new_tokens": 4}}}}},
             "benchmarks.gate-x-e.decoding names 'nope'"),
            ({"benchmarks": {"fairtranslate": {"system_prompts": {BASE_LLM: ["zeroshot"]}}}},
             f"benchmarks.fairtranslate.system_prompts.{BASE_LLM}")]:
        (project / "config" / "bad.yaml").write_text(yaml.safe_dump(overlay))
        proc = snakemake(project, "-n", "--cores", "2", "--configfile", "config/config.yaml",
                         "config/bad.yaml")
        assert proc.returncode != 0 and message in output_of(proc), (message, explain(proc))


# ------------------------------------------------------------------ the session's default run
def test_llm_outputs_record_why_they_ended_and_which_weights(default_run):
    default_run.require_success()
    # ConGA: the default benchmark the chat LLM translates on its one prompt
    conga = "results/default/conga"
    path = default_run.path(f"{conga}/translations/{LLM}/baseline.jsonl")
    records = [json.loads(line) for line in path.read_text().splitlines()]
    items = len(default_run.path(f"{conga}/inputs/baseline.jsonl").read_text().splitlines())
    assert len(records) == items > 0 and all(r["raw"].strip() for r in records)
    reasons = Counter(r["finish_reason"] for r in records)
    assert set(reasons) <= {"eos", "length", "unknown"}
    meta = json.loads(path.with_suffix(".meta.json").read_text())
    sha = meta["backend"]["gguf_sha256"]  # in the identity, like a Hub revision
    assert len(sha) == 64
    if meta["resolved"]:  # empty when every item came from the session's request cache
        assert meta["resolved"]["gguf_sha256"] == sha
    assert meta["truncated"] == reasons["length"]
    table = pd.read_csv(default_run.path(f"{conga}/tables/finish_reasons.csv"))
    row = table[(table["system"] == LLM) & (table["prompt"] == "baseline")].iloc[0]
    assert row["items"] == items and row["length"] == reasons["length"]
    assert row["truncated_share"] == pytest.approx(reasons["length"] / items)
    oracle = table[table["system"] == "conga-oracle-first"]
    assert (oracle["n/a"] == items).all() and (oracle["truncated_share"] == 0).all()
    for bench in ("fairtranslate", "neogate", "gate", "gate-x-e", "gambit", "mt-geneval"):
        assert default_run.path(f"results/default/{bench}/tables/finish_reasons.csv").is_file()


def test_the_scorecard_has_real_rows_with_their_quality(default_run):
    """The base LLM's row carries FairTranslate's quality and gaps (its few-shot prompt); the
    chat LLM's Neo-GATE figures are flagged by its low share of clean outputs; copy-source's
    gaps are flagged by its BLEU; Table 1's Mean leaves out the model that did not run the
    baseline prompt, saying so."""
    default_run.require_success()
    card = pd.read_csv(default_run.path("results/default/scorecard/scorecard.csv"))
    card = card.set_index("system")
    for column in ("FairTranslate · BLEU (all)", "FairTranslate · BLEU male−inclusive",
                   "Neo-GATE · CWA (asterisk)", "ConGA · A→M share", "GATE · rewriting accuracy"):
        assert column in card.columns, column
    gemma = card.loc[BASE_LLM]
    assert gemma["FairTranslate · prompt"] == "fewshot"
    assert pd.notna(gemma["FairTranslate · BLEU (all)"])
    assert pd.notna(gemma["FairTranslate · BLEU male−inclusive"])
    assert pd.notna(card.loc[LLM, "Neo-GATE · CWA (asterisk)"])
    # the oracles translate (BLEU well above the floor); copy-source does not
    assert card.loc["oracle-male", "FairTranslate · BLEU (all)"] > 10
    assert card.loc["copy-source", "FairTranslate · BLEU (all)"] < 10
    md = default_run.path("results/default/scorecard/scorecard.md").read_text()
    lines = {line.split("|")[1].strip(): line for line in md.splitlines()
             if line.startswith("| ")}
    assert "(low quality)" in lines["copy-source"]
    # SmolLM2 answers half of Neo-GATE in English or with the instruction: not a finding
    if card.loc[LLM, "Neo-GATE · clean outputs"] < CLEAN_SHARE_FLOOR:
        assert "clean_share" in card.loc[LLM, "Neo-GATE · low quality"]
        assert "(low quality)" in lines[LLM]
    note = default_run.path("results/default/fairtranslate/tables/paper_table1.md").read_text()
    assert "baselines and oracles left out" in note
    assert f"not in the Mean: {BASE_LLM}" in note


def test_the_base_llm_answers_end_at_the_stop_string(default_run):
    """Gemma few-shot in the default: every item answered, most answers ended by the newline
    (finish reason "stop", counted in finish_reasons.csv), its scorecard row on its headline
    prompt (few-shot), named in the scorecard."""
    default_run.require_success()
    for bench in ("fairtranslate", "mt-geneval"):
        path = default_run.path(f"results/default/{bench}/translations/{BASE_LLM}/fewshot.jsonl")
        records = [json.loads(line) for line in path.read_text().splitlines()]
        assert records and all(r["hypothesis"].strip() for r in records), bench
        reasons = Counter(r["finish_reason"] for r in records)
        assert set(reasons) <= {"stop", "eos", "length"}, (bench, reasons)
        assert reasons["stop"] >= 0.8 * len(records), (bench, reasons)
        assert "\n" not in "".join(r["hypothesis"] for r in records)  # cut before the stop
        table = pd.read_csv(default_run.path(f"results/default/{bench}/tables/finish_reasons.csv"))
        row = table[(table["system"] == BASE_LLM) & (table["prompt"] == "fewshot")].iloc[0]
        assert row["items"] == len(records) and row["stop"] == reasons["stop"], bench
    card = json.loads(default_run.path("results/default/scorecard/scorecard.json").read_text())
    gemma = next(r for r in card if r["system"] == BASE_LLM)
    assert gemma["fairtranslate"]["run"] == "fewshot"
    assert gemma["mt-geneval"]["run"] == "fewshot"
    md = default_run.path("results/default/scorecard/scorecard.md").read_text()
    assert f"{BASE_LLM}: fewshot" in md  # the column's run names the base LLM's prompt
