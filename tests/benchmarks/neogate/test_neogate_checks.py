"""Echoes of the instruction and wrong-language outputs are found, counted, and kept out of
misgeneration_clean (the authors' misgeneration keeps them)."""

import json

import pandas as pd

from gendermt.benchmarks.neogate.checks import check_output, instruction_of
from gendermt.benchmarks.neogate.evaluate import score_run
from gendermt.data.io import write_jsonl

INSTRUCTION = ("Translate the following sentence into Italian, using the neomorpheme ‘*’ for "
               "words that refer to people of unknown gender. Give only the translation.")
SOURCE = "The nurse is tired."


def test_echo_wrong_language_and_ok():
    prompt = instruction_of([{"role": "user", "content": f"{INSTRUCTION}\n<{SOURCE}>"}], SOURCE)
    assert SOURCE not in prompt
    assert check_output("Translate the following sentence into Italian, using the "
                        "neomorpheme ‘*’ for words", prompt) == "echo"
    assert check_output("The nurse is tired and the doctor is here.", prompt) == \
        "wrong_language"
    assert check_output("L'infermier* è stanc*.", prompt) == "ok"
    assert check_output("L'infermier* è stanc* e il medico è qui.", prompt) == "ok"


def test_score_run_reports_mis_both_ways(tmp_path):
    data = pd.DataFrame({"item_id": ["a", "b"], "number": [1, 2],
                         "annotation_asterisk": ["stanco stanca stanc*"] * 2})
    data.to_parquet(tmp_path / "data.parquet")
    echoed = "Translate the following sentence into Italian, using the neomorpheme ‘*’ for words"
    write_jsonl(tmp_path / "t.jsonl", [{"item_id": "a", "raw": echoed},
                                       {"item_id": "b", "raw": "L'infermier* è stanc*."}])
    write_jsonl(tmp_path / "in.jsonl", [
        {"item_id": i, "source": SOURCE,
         "messages": [{"role": "user", "content": f"{INSTRUCTION}\n<{SOURCE}>"}]}
        for i in "ab"])
    run = {"name": "zeroshot-asterisk", "paradigm": "asterisk", "format": "zeroshot",
           "shots": 0, "neomorphemes": ["*"]}
    template = {"version": "1", "sha256": "x" * 16}
    score_run(tmp_path / "t.jsonl", tmp_path / "data.parquet", run, template, {}, "llm",
              tmp_path / "s.parquet", tmp_path / "s.json", tmp_path / "s.tsv",
              inputs=tmp_path / "in.jsonl")
    summary = json.loads((tmp_path / "s.json").read_text())
    assert summary["checks"] == {"ok": 1, "echo": 1, "wrong_language": 0}
    scores = summary["scores"]
    # the echo's ‘*’ ("neomorpheme ‘*’") is a mis-generation the authors' way only
    assert scores["misgeneration"] > scores["misgeneration_clean"]
    assert list(pd.read_parquet(tmp_path / "s.parquet")["check"]) == ["echo", "ok"]
