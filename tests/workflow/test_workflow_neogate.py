"""Neo-GATE in the session's default run (the ``default_run`` fixture): its jobs, the oracles'
extremes, extraction counts, demonstrations in the inputs, Table 6, the heatmaps."""

from __future__ import annotations

import json
import re
from itertools import product
from pathlib import Path

import pandas as pd
import pytest
import yaml

from .. import default_plan as plan
from ..workflow_support import Run, output_of, planned_jobs, read_json

pytestmark = pytest.mark.workflow

NG = Path("results/default/neogate")
PARADIGMS = {"asterisk": "oracle-asterisk", "schwa": "oracle-schwa"}
METRICS = ["coverage", "accuracy", "cwa", "misgeneration"]


def spec(run: Run) -> dict:
    config = yaml.safe_load(run.path("config/config.yaml").read_text(encoding="utf-8"))
    return config["benchmarks"]["neogate"]


def run_names(run: Run) -> list[str]:
    s = spec(run)
    names = []
    for paradigm in s["paradigms"]:
        for fmt in s["prompts"]:
            names += ([f"{fmt}-{paradigm}"] if fmt == "zeroshot" else
                      [f"{fmt}-{k}shot-{paradigm}" for k in s["shots"]])
    return names


def every_pair(run: Run) -> list[tuple[str, str]]:
    """(system, run) of every run the config asks for: its systems on every run, each
    paradigm's own (paradigm_systems) on that paradigm's runs."""
    return plan.neogate_pairs(spec(run))


def pairs(run: Run) -> list[tuple[str, str]]:
    """(system, run) pairs of the oracles the default scores."""
    return [(system, name) for name in run_names(run)
            for system in ["oracle-male", PARADIGMS[name.rsplit("-", 1)[1]]]]


def test_neogate_jobs_are_in_the_default_run(default_run):
    default_run.require_success()
    jobs = planned_jobs(output_of(default_run.proc))
    ours = [(rule, wc) for rule, wc in jobs if wc.get("benchmark") == "neogate"
            or rule.startswith("neogate")]
    names = run_names(default_run)
    # Neo-GATE's own rules call the generic rules' {prompt} (a run) {run}
    assert sorted(wc["run"] for r, wc in ours if r == "neogate_inputs") == sorted(names)
    every = sorted(every_pair(default_run))
    assert set(pairs(default_run)) <= set(every)  # the oracles run every run of their own
    assert sorted((wc["system"], wc["prompt"]) for r, wc in ours if r == "translate") == every
    assert sorted((wc["system"], wc["run"]) for r, wc in ours if r == "neogate_score") == \
        every
    for rule in ("neogate_data", "neogate_tables", "neogate_figures"):
        assert [r for r, _ in jobs].count(rule) == 1, rule
    # the generic rules never run for Neo-GATE (ruleorder)
    assert not [r for r, wc in ours if r in ("build_inputs", "score")]
    # one job per run for inputs; translate, extract and score per system × run; data,
    # tables, figures, the finish-reasons count and the output checks once
    assert len(ours) == len(names) + 3 * len(every) + 5, len(ours)


def test_oracles_pin_the_metric_extremes(default_run):
    default_run.require_success()
    for system, name in pairs(default_run):
        summary = read_json(default_run.path(NG / "scores" / system / f"{name}.json"))
        scores = summary["scores"]
        assert summary["extraction"] == {"bracketed": 0, "plain": 12, "unextractable": 0}
        assert scores["n_annotations"] == 36 and scores["matched"] == 36, (system, name)
        assert scores["misgeneration"] == 0
        if system == "oracle-male":
            assert (scores["coverage"], scores["accuracy"], scores["cwa"]) == (100, 0, 0)
            assert scores["masculine"] == 36
        else:
            assert (scores["coverage"], scores["accuracy"], scores["cwa"]) == (100, 100, 100)
            assert scores["correct"] == 36


def test_per_item_tsv_lists_the_matched_words(default_run):
    default_run.require_success()
    tsv = pd.read_csv(default_run.path(NG / "scores/oracle-schwa/zeroshot-schwa.tsv"), sep="\t")
    assert list(tsv.columns) == ["item_id", "#", "EXTRACTION", "ANNOTATIONS", "MATCHED",
                                 "CORRECT", "MASCULINE", "FEMININE", "MIS-GENERATIONS"]
    assert len(tsv) == 12
    first = tsv.iloc[0]
    assert first["CORRECT"] == "lə nuovə distrattə" and first["ANNOTATIONS"] == 3


def test_scores_equal_the_cli_on_the_same_outputs(default_run, tmp_path, capsys):
    from gendermt.cli import main

    default_run.require_success()
    translations = pd.read_json(
        default_run.path(NG / "translations/oracle-male/direct-4shot-schwa.jsonl"), lines=True)
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("\n".join(translations["hypothesis"]) + "\n", encoding="utf-8")
    assert main(["score", "neogate", "--data", str(default_run.path(spec(default_run)["data"]
                                                                  ["test"])),
                 "--mapping", str(default_run.path("resources/neogate/schwa.json")),
                 "--hyp", str(hyp), "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    signature = cli.pop("signature")
    # the outputs' check the command adds (issue 48): the oracle's Italian is clean
    assert cli.pop("low_quality") is False and cli.pop("clean_share") > 0.9
    summary = read_json(default_run.path(NG / "scores/oracle-male/direct-4shot-schwa.json"))
    assert cli == {k: summary["scores"][k] for k in cli}
    # the same metric and options, save that the command scores its lines as given
    assert signature == re.sub(r"accept_plain:(yes|no)", "accept_plain:none",
                               summary["signature"])


def test_inputs_carry_the_run_and_its_demonstrations(default_run):
    default_run.require_success()
    shots = spec(default_run)["shots"][0]
    records = [json.loads(line) for line in default_run.path(
        NG / f"inputs/ternary-{shots}shot-schwa.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(records) == 12
    first = records[0]
    assert first["paradigm"] == "schwa" and first["shots"] == shots
    assert len(first["demonstrations"]) == shots
    assert len(first["messages"]) == 2 * shots + 1
    assert "ɜ" in first["messages"][1]["content"] or "ə" in first["messages"][1]["content"]
    assert first["messages"][-1]["content"] == f"[English] <{first['source']}> [Italian, masculine]"
    zero = json.loads(default_run.path(NG / "inputs/zeroshot-asterisk.jsonl")
                      .read_text(encoding="utf-8").splitlines()[0])
    assert len(zero["messages"]) == 1 and "‘*’" in zero["messages"][0]["content"]


def test_table_6_and_the_fewshot_grid(default_run):
    default_run.require_success()
    zero = pd.read_csv(default_run.path(NG / "tables/zeroshot.csv"))
    every = every_pair(default_run)
    assert set(zip(zero["system"], zero["paradigm"], strict=True)) == {
        (system, name.rsplit("-", 1)[1]) for system, name in every if name.startswith("zeroshot")}
    assert {("oracle-male", "asterisk"), ("oracle-male", "schwa"), ("oracle-asterisk", "asterisk"),
            ("oracle-schwa", "schwa")} <= set(zip(zero["system"], zero["paradigm"], strict=True))
    assert (zero["shots"] == 0).all()
    few = pd.read_csv(default_run.path(NG / "tables/fewshot.csv"))
    assert len(few) == len(every) - len(zero)
    assert (few["shots"] > 0).all()
    md = default_run.path(NG / "tables/zeroshot.md").read_text(encoding="utf-8")
    for column in ("COV", "ACC", "CWA", "MIS"):
        assert column in md
    dataset = pd.read_csv(default_run.path(NG / "tables/dataset.csv")).set_index("split")
    assert dataset.loc["test", "tags"] == 36
    assert dataset.loc["test", "singular"] + dataset.loc["test", "plural"] == 36
    extraction = pd.read_csv(default_run.path(NG / "tables/extraction.csv"))
    offline = [s for s, _ in pairs(default_run)]  # a real LLM's output may be unextractable
    assert (extraction[extraction["system"].isin(offline)]["unextractable"] == 0).all()
    assert (extraction["bracketed"] + extraction["plain"] + extraction["unextractable"]
            == extraction["items"]).all()


def test_heatmaps_are_written(default_run):
    default_run.require_success()
    for metric, ext in product(METRICS, ["png", "pdf"]):
        data = default_run.path(NG / f"figures/{metric}.{ext}").read_bytes()
        assert data.startswith(b"\x89PNG" if ext == "png" else b"%PDF"), metric
        assert len(data) > 1000


def test_a_mapping_form_that_breaks_the_annotations_stops_the_run_at_start(tmp_path):
    from ..workflow_support import copy_project, explain, snakemake

    workdir = copy_project(tmp_path / "project")
    mapping_path = workdir / "resources/neogate/asterisk.json"
    mapping = json.loads(mapping_path.read_text(encoding="utf-8"))
    mapping["<DARTS>"] = "l *"
    mapping_path.write_text(json.dumps(mapping, ensure_ascii=False), encoding="utf-8")
    proc = snakemake(workdir, "-n", "--cores", "2")
    assert proc.returncode != 0, explain(proc)
    text = output_of(proc)
    assert "asterisk.json: the form of <DARTS> ('l *') holds ' '" in text, explain(proc)
