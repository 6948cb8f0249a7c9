"""FairTranslate as the authors' scripts ran it: their output cleaning, their code's prompts
and their sampling, as options beside the project's defaults (docs/fairtranslate-authors.md).

The cases are written from the authors' behaviour (run_translations.py removes every ``"``
and keeps the first line), not from their code."""

from __future__ import annotations

import re

import pandas as pd
import pytest
import yaml

from gendermt.benchmarks.fairtranslate import postprocess_modes
from gendermt.config.checks import check_config, check_schema
from gendermt.config.templates import load_templates
from gendermt.core.errors import GenderMTError
from gendermt.scoring.nltk_bleu import sentence_bleu_m4
from gendermt.translation.postprocess import AUTHORS_STEPS, PROJECT_STEPS, pipeline

from ...conftest import ROOT

AUTHORS = pipeline(AUTHORS_STEPS)
PROJECT = pipeline(PROJECT_STEPS)
REF = "Le médecin est venu hier soir."
STUDY = ROOT / "config" / "study" / "fairtranslate.yaml"
SCHEMA = ROOT / "workflow" / "schemas" / "config.schema.yaml"

# raw output → (authors' cleaning, project's cleaning)
CASES = [
    # the model echoes the prompt's single quotes: the authors keep them
    ("'Le médecin est venu hier soir.'", ("'Le médecin est venu hier soir.'", REF)),
    # double quotes: both remove them
    ('"Le médecin est venu hier soir."', (REF, REF)),
    # chatter on the next line: both keep the first line
    ("Le médecin est venu hier soir.\nNote : « médecin » est masculin.", (REF, REF)),
    # a leading line break: the authors' first line is empty, the project's the translation
    ("\nLe médecin est venu hier soir.", ("", REF)),
    # quotes inside the sentence: the authors remove every one, the project none
    ('Il a dit "bonjour" au médecin.', ("Il a dit bonjour au médecin.",
                                        'Il a dit "bonjour" au médecin.')),
    # French guillemets: only the project removes them
    ("« Le médecin est venu hier soir. »", ("« Le médecin est venu hier soir. »", REF)),
    # surrounding spaces: the authors leave them (whitespace BLEU ignores them)
    ("  Le médecin est venu hier soir.  ", ("  Le médecin est venu hier soir.  ", REF)),
    # a quoted first line followed by an explanation
    ('"Le médecin est venu hier soir."\n(Translation note)', (REF, REF)),
]


@pytest.mark.parametrize(("raw", "expected"), CASES, ids=range(len(CASES)))
def test_the_two_cleanings_of_one_raw_output(raw, expected):
    assert (AUTHORS(raw), PROJECT(raw)) == expected


def test_an_echoed_quote_costs_half_the_bleu_under_the_authors_cleaning():
    raw = "'Le médecin est venu hier soir.'"
    assert round(sentence_bleu_m4(AUTHORS(raw), REF), 2) == 50.81
    assert round(sentence_bleu_m4(PROJECT(raw), REF), 2) == 100.00


def test_the_authors_step_is_known_to_the_schema_and_the_pipeline():
    schema = yaml.safe_load((ROOT / "src/gendermt/benchmarks/fairtranslate/schema.yaml")
                            .read_text("utf-8"))
    assert "authors" in schema["properties"]["postprocess"]["items"]["enum"]
    with pytest.raises(GenderMTError, match="unknown post-processing step"):
        pipeline(["author"])


def test_the_table_counts_each_cleaning_and_scores_both():
    raws = [raw for raw, _ in CASES]
    outputs = pd.DataFrame({"system": "llm", "prompt": "baseline",
                            "item_id": range(len(raws)), "raw": raws})
    data = pd.DataFrame({"item_id": range(len(raws)),
                         "reference": [REF, REF, REF, REF, "Il a dit bonjour au médecin.",
                                       REF, REF, REF]})
    table = postprocess_modes.comparison(outputs, data, ["authors"])
    row = table.iloc[0]
    assert row["outputs"] == 8
    assert row["project_changed"] == 7   # all but the inner-quotes one
    assert row["authors_changed"] == 5   # double quotes, chatter, line break, inner quotes
    assert row["cleanings_differ"] == 5  # single quotes, break, inner, guillemets, spaces
    expected = {mode: round(sum(sentence_bleu_m4(clean(r), ref) for r, ref in
                                zip(raws, data["reference"], strict=True)) / 8, 2)
                for mode, clean in (("authors", AUTHORS), ("project", PROJECT))}
    assert row["bleu_nltk_m4_authors"] == expected["authors"]
    assert row["bleu_nltk_m4_project"] == expected["project"]
    assert row["bleu_nltk_m4_authors"] < row["bleu_nltk_m4_project"]
    assert row["configured"] == "authors" and row["normalize_hypotheses"] == "none"
    assert "`authors`: every `\"` removed" in postprocess_modes.markdown(table)


def test_the_table_names_an_item_the_data_lacks():
    outputs = pd.DataFrame({"system": "s", "prompt": "p", "item_id": [99], "raw": ["x"]})
    with pytest.raises(GenderMTError, match=r"item_id\(s\) \[99\]"):
        postprocess_modes.comparison(outputs, pd.DataFrame({"item_id": [1], "reference": ["x"]}),
                                     [])


def test_the_code_prompts_differ_from_the_papers_where_the_authors_code_does():
    paper = load_templates(ROOT / "src/gendermt/benchmarks/fairtranslate/prompts/translate.yaml")
    code = load_templates(ROOT / "src/gendermt/benchmarks/fairtranslate/prompts/code.yaml")
    # the paper's four strategies (the paper's file also has the project's few-shot prompt
    # for base models, which the authors' code does not have)
    assert list(code) == ["baseline", "moral", "linguistic", "moral_linguistic"]
    assert set(code) <= set(paper)
    assert code["baseline"]["user"] == paper["baseline"]["user"]
    assert code["moral"]["user"] == paper["moral"]["user"].replace(
        "You are a translation model without", "You are a translation without")
    assert code["linguistic"]["user"] == paper["linguistic"]["user"].replace(
        "explicitly requested.",
        "explicitly requested. Otherwise, use the classic feminine or masculine form.")
    assert code["moral_linguistic"]["user"].startswith("You are a translation without gender")
    assert "Otherwise, use the classic feminine or masculine form." in \
        code["moral_linguistic"]["user"]


def _study(uncomment_sampling: bool = False) -> dict:
    text = STUDY.read_text("utf-8")
    if uncomment_sampling:
        block = re.search(r"# --- authors' sampling \(begin\) ---\n(.*?)"
                          r"\n *# --- authors' sampling \(end\) ---", text, re.S)
        assert block, "the study config states the authors' sampling between markers"
        text = text.replace(block.group(1), re.sub(r"(?m)^(\s*)# ?", r"\1",
                                                   block.group(1)))
    config = yaml.safe_load(text)
    systems = yaml.safe_load((ROOT / "config/study/systems.yaml").read_text("utf-8"))
    config["systems"] = systems["systems"]
    return config


def test_the_study_config_runs_the_authors_cleaning_and_code_prompts():
    spec = _study()["benchmarks"]["fairtranslate"]
    assert spec["postprocess"] == ["authors"]
    assert spec["templates"] == "src/gendermt/benchmarks/fairtranslate/prompts/code.yaml"
    assert "decoding" not in spec  # greedy unless the option is uncommented


def test_the_authors_sampling_option_passes_the_start_up_checks(monkeypatch):
    monkeypatch.chdir(ROOT)
    config = _study(uncomment_sampling=True)
    decoding = config["benchmarks"]["fairtranslate"]["decoding"]
    assert set(decoding) == set(config["benchmarks"]["fairtranslate"]["systems"])
    assert all(d == {"temperature": 0.8, "top_p": 0.9, "seed": 0} for d in decoding.values())
    check_schema(config, SCHEMA)
    assert check_config(config)
    # a setting the backend does not take is caught there, naming the key
    decoding["gemma-2-2b"]["top_k"] = 40
    with pytest.raises(GenderMTError, match=r"benchmarks.fairtranslate.decoding.gemma-2-2b.*top_k"):
        check_config(config)
