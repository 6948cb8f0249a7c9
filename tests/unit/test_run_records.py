"""Runs as records (issue 21): an aggregate stage takes each run's system and prompt from the
``{system, prompt, path}`` record its rule passes (``params: runs``), never from the file's
path. The files here lie at paths that do not follow the workflow's layout
(``.../{system}/{prompt}.<ext>``): a stage that parsed them would name the wrong run."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from gendermt.analysis.finish import finish_counts
from gendermt.analysis.tables import collect_scores
from gendermt.benchmarks.fairtranslate.inclusive_tables import read_translations
from gendermt.benchmarks.gate_x_e.tables import answer_table
from gendermt.benchmarks.neogate.flores_tables import quality_table
from gendermt.core.errors import GenderMTError
from gendermt.data.io import write_jsonl


def off_layout(tmp_path, name):
    """A file whose folder and name are neither a system nor a prompt."""
    path = tmp_path / "not-a-system" / f"{name}.v2.out"
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def test_translation_stages_name_the_record_not_the_path(tmp_path):
    path = off_layout(tmp_path, "run-1")
    write_jsonl(path, [{"item_id": "a", "raw": "x", "hypothesis": "x", "finish_reason": "eos"},
                       {"item_id": "b", "raw": "y", "hypothesis": "y",
                        "finish_reason": "length"}])
    runs = [{"system": "my-llm", "prompt": "moral", "path": str(path)}]
    row = finish_counts(runs).iloc[0]
    assert (row["system"], row["prompt"], row["items"], row["length"]) == (
        "my-llm", "moral", 2, 1)
    frame = read_translations(runs)
    assert set(frame["system"]) == {"my-llm"} and set(frame["prompt"]) == {"moral"}


def test_score_stages_name_the_record_not_the_path(tmp_path):
    data = pd.DataFrame({"item_id": ["a", "b"], "gender": ["male", "female"]})
    per_run = off_layout(tmp_path, "scores-1")
    pd.DataFrame({"item_id": ["a", "b"], "metric": "bleu", "score": [10.0, 20.0],
                  "signature": "s"}).to_parquet(per_run)
    # a file of many runs (COMET's): its rows name them, its record is only a path
    many = tmp_path / "all-runs.parquet"
    pd.DataFrame({"system": "nmt", "prompt": "baseline", "item_id": ["a", "b"],
                  "metric": "comet", "score": [80.0, 90.0], "signature": "c"}).to_parquet(many)
    scores = collect_scores([{"system": "my-llm", "prompt": "moral", "path": per_run},
                             {"path": many}], data, ["gender"])
    assert scores[["system", "prompt", "metric"]].drop_duplicates().values.tolist() == [
        ["my-llm", "moral", "bleu"], ["nmt", "baseline", "comet"]]
    assert scores.loc[scores["item_id"] == "b", "gender"].unique().tolist() == ["female"]

    summary = off_layout(tmp_path, "summary-1")
    summary.write_text(json.dumps({"metrics": {"bleu": {
        "signature": "b", "corpus": {"all": 30.0}, "n": {"all": 2}}}}), encoding="utf-8")
    row = quality_table([{"system": "opus", "prompt": "three_shot", "path": summary}]).iloc[0]
    assert (row["system"], row["prompt"], row["bleu"]) == ("opus", "three_shot", 30.0)


def test_rewrite_stage_names_the_record_not_the_path(tmp_path):
    path = off_layout(tmp_path, "rewrites-1")
    pd.DataFrame({"item_id": ["a", "b"], "answer": ["complete", "refused"]}).to_parquet(path)
    row = answer_table([{"system": "rewriter", "prompt": "step_by_step",
                         "path": path}]).iloc[0]
    assert (row["system"], row["prompt"], row["requests"], row["refused"]) == (
        "rewriter", "step_by_step", 2, 1)


def test_a_file_of_one_run_needs_its_record(tmp_path):
    path = off_layout(tmp_path, "scores-2")
    pd.DataFrame({"item_id": ["a"], "metric": "bleu", "score": [1.0]}).to_parquet(path)
    with pytest.raises(GenderMTError, match="needs a record with its system and prompt"):
        collect_scores([{"path": path}], pd.DataFrame({"item_id": ["a"]}), [])
