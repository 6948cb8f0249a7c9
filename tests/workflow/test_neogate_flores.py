"""Neo-GATE's Table 4 block (FLORES en→it translation quality): the FLORES reader, the
paper's 3-shot chat prompt, the table from score files, and a Snakemake run of the block on
the project's FLORES-format sample with a tiny random-weight Marian model standing in for
opus-mt-en-it (the same architecture; the Hub is off)."""

from __future__ import annotations

import json

import pandas as pd
import pytest
import yaml

from gendermt.benchmarks.neogate.flores import (
    build_inputs,
    load,
    load_template,
    messages,
)
from gendermt.benchmarks.neogate.flores_tables import quality_table
from gendermt.core.errors import DatasetError
from gendermt.data.io import read_jsonl
from gendermt.translation.postprocess import pipeline

from .. import tiny_models
from ..conftest import ROOT
from ..workflow_support import RUN_TIMEOUT, copy_project, explain, snakemake

SAMPLE = ROOT / "resources" / "neogate" / "flores-sample" / "devtest"
SRC, REF = SAMPLE / "eng_Latn.devtest", SAMPLE / "ita_Latn.devtest"
TEMPLATES = ROOT / "src/gendermt/benchmarks/neogate/prompts/flores.yaml"


def test_flores_files_are_read_line_by_line_and_must_align(tmp_path):
    data = load(SRC, REF)
    assert len(data) == 8 and data["item_id"].iloc[0] == "flores-0001"
    assert data["reference"].iloc[-1] == "Suona il pianoforte ogni sera dopo cena."
    short = tmp_path / "ita.devtest"
    short.write_text("Una riga.\n", encoding="utf-8")
    with pytest.raises(DatasetError, match="aligned line by line"):
        load(SRC, short)
    blank = tmp_path / "eng.devtest"
    blank.write_text("One.\n\nThree.\n", encoding="utf-8")
    with pytest.raises(DatasetError, match="row 2"):
        load(blank, blank)


def test_the_three_shot_prompt_is_the_papers_table_10(tmp_path):
    template = load_template(TEMPLATES, "three_shot")
    turns = messages(template, "The cat sleeps.")
    assert [t["role"] for t in turns] == ["user", "assistant"] * 3 + ["user"]
    assert turns[0]["content"].startswith(
        "Translate the following English sentence into Italian: <Construction is ongoing")
    assert turns[1]["content"].startswith("<Nel sito sono in corso")
    assert turns[-1]["content"] == "<The cat sleeps.>"
    data = tmp_path / "data.parquet"
    load(SRC, REF).to_parquet(data)
    out = tmp_path / "inputs.jsonl"
    build_inputs(data, template, out)
    records = list(read_jsonl(out))
    assert records[0]["source"] == load(SRC, REF)["source"].iloc[0]  # NMT reads this
    assert records[0]["template_sha256"] == template["sha256"]
    # the answer's brackets go
    assert pipeline(["strip_brackets", "strip"])(" <Il gatto dorme.> ") == "Il gatto dorme."


def test_quality_table_reads_the_score_files(tmp_path):
    run = tmp_path / "scores" / "opus-mt-en-it"
    run.mkdir(parents=True)
    summary = {m: {"signature": f"{m}-sig", "corpus": {"all": v}, "n": {"all": 8}}
               for m, v in (("bleu", 27.5), ("chrf", 57.6), ("ter", 59.0))}
    (run / "three_shot.json").write_text(json.dumps({"metrics": summary}), encoding="utf-8")
    comet = tmp_path / "comet.parquet"
    pd.DataFrame({"system": "opus-mt-en-it", "prompt": "three_shot", "item_id": ["a", "b"],
                  "metric": "comet", "score": [80.0, 85.0],
                  "signature": "comet:x|scale:x100"}).to_parquet(comet)
    table = quality_table([{"system": "opus-mt-en-it", "prompt": "three_shot",
                            "path": run / "three_shot.json"}], comet, None)
    row = table.iloc[0]
    assert (row["system"], row["bleu"], row["ter"], row["comet"]) == (
        "opus-mt-en-it", 27.5, 59.0, 82.5)
    assert pd.isna(row["bertscore"]) and row["n"] == 8


@pytest.fixture(scope="module")
def marian(tmp_path_factory):
    return tiny_models.build_seq2seq(tmp_path_factory.mktemp("opus"))


def test_workflow_runs_table_4_on_the_flores_sample(tmp_path, marian):
    project = copy_project(tmp_path / "project")
    systems = yaml.safe_load((ROOT / "config" / "study" / "systems.yaml").read_text())
    opus = dict(systems["systems"]["opus-mt-en-it"], model=str(marian), max_new_tokens=8)
    config = {
        "benchmarks": {"neogate-flores": {
            "data": {"source": str(SRC), "reference": str(REF)},
            "templates": str(TEMPLATES), "prompts": ["three_shot"],
            "systems": ["opus-mt-en-it"], "metrics": ["bleu", "chrf", "ter"]}},
        "systems": {"opus-mt-en-it": opus},
        "cache": {"dir": str(tmp_path / "cache"), "enabled": True},
        "run": "default",  # a config of its own, without the default: it names its run
    }
    path = tmp_path / "flores.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    proc = snakemake(project, "--cores", "2", "--configfile", str(path), timeout=RUN_TIMEOUT)
    assert proc.returncode == 0, explain(proc)
    table = pd.read_csv(
        project / "results" / "default" / "neogate-flores" / "tables" / "flores.csv")
    assert table[["system", "prompt", "n"]].values.tolist() == [
        ["opus-mt-en-it", "three_shot", 8]]
    assert table[["bleu", "chrf", "ter"]].notna().all(axis=None)
    assert table["comet"].isna().all()  # not configured
    md = (project / "results" / "default" / "neogate-flores" / "tables" / "flores.md").read_text()
    assert "opus-mt-en-it" in md and "| -" in md and "27.53" in md  # the paper's row too
