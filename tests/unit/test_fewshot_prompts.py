"""Completion-style few-shot templates: a demonstration fragment renders the file's
demonstrations of the item's target language into {demonstrations}; they are checked when
the file is read, part of the template's hash, and a language without them is a clear error.
A template's own tgt_lang reaches requests whose data has none (WinoMT)."""

from pathlib import Path

import pandas as pd
import pytest

from gendermt.config.templates import load_templates
from gendermt.core.errors import GenderMTError
from gendermt.data.io import read_jsonl
from gendermt.translation.prompts import LANGUAGE_NAMES, build_inputs, render

FILE = """
joiner: "\\n"
fragments:
  demo: |-
    {src_lang_name}: {source}
    {tgt_lang_name}: {target}
  query: |-
    {demonstrations}

    {src_lang_name}: {source}
    {tgt_lang_name}:
  task: "Translate: {source}"
demonstrations:
  fr:
    - {source: "Good morning.", target: "Bonjour."}
    - {source: "Thank you.", target: "Merci."}
  de:
    - {source: "Good morning.", target: "Guten Morgen."}
templates:
  fewshot: {version: 1, demonstration: demo, user: [query]}
  plain: {version: 1, user: [task]}
"""


def write(tmp_path, text=FILE):
    path = tmp_path / "t.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_demonstrations_of_the_target_language_fill_the_template(tmp_path):
    templates = load_templates(write(tmp_path))
    [message] = render(templates["fewshot"], "The cat.", "en", "fr")
    assert message == {"role": "user", "content": (
        "English: Good morning.\nFrench: Bonjour.\n\nEnglish: Thank you.\nFrench: Merci."
        "\n\nEnglish: The cat.\nFrench:")}
    [message] = render(templates["fewshot"], "The cat.", "en", "de")
    assert message["content"].startswith("English: Good morning.\nGerman: Guten Morgen.\n\n")
    assert render(templates["plain"], "x", "en", "fr")[0]["content"] == "Translate: x"
    with pytest.raises(GenderMTError, match=r"template 'fewshot' has no demonstrations for "
                                            r"the target language 'it' \(it has de, fr\)"):
        render(templates["fewshot"], "x", "en", "it")


def test_the_demonstrations_are_in_the_templates_hash(tmp_path):
    first = load_templates(write(tmp_path))
    edited = load_templates(write(tmp_path, FILE.replace("Merci.", "Merci bien.")))
    assert edited["fewshot"]["sha256"] != first["fewshot"]["sha256"]
    # a template without demonstrations keeps its hash: the feature changes no other prompt
    assert edited["plain"]["sha256"] == first["plain"]["sha256"]
    shipped = load_templates("src/gendermt/benchmarks/fairtranslate/prompts/translate.yaml")
    assert shipped["baseline"]["sha256"] == "a95a5e8b97c20b1d"  # as before few-shot prompts


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace("demonstration: demo, ", ""),
     "uses {demonstrations} but names no `demonstration` fragment"),
    (lambda t: t.replace("demonstration: demo", "demonstration: nope"),
     "demonstration fragment 'nope' is not in `fragments:`"),
    (lambda t: t.replace("{tgt_lang_name}: {target}", "{tgt_lang_name}: {answer}"),
     r"the demonstration fragment uses \{answer\}"),
    (lambda t: t.replace("user: [query]", "user: [task]"),
     r"has demonstrations but no \{demonstrations\} placeholder"),
    (lambda t: t.replace('- {source: "Thank you.", target: "Merci."}', "- Merci"),
     r"demonstrations.fr must be a list of \{source: ..., target: ...\}"),
])
def test_malformed_few_shot_templates_are_refused_when_read(tmp_path, edit, message):
    with pytest.raises(GenderMTError, match=message):
        load_templates(write(tmp_path, edit(FILE)))


def test_shipped_few_shot_prompts_cover_the_defaults_languages():
    ft = load_templates("src/gendermt/benchmarks/fairtranslate/prompts/translate.yaml")["fewshot"]
    assert render(ft, "x", "en", "fr")[0]["content"].endswith("English: x\nFrench:")
    mg = load_templates("src/gendermt/benchmarks/mt_geneval/prompts/translate.yaml")
    for lang in ("fr", "de", "es", "it"):
        for name in ("fewshot", "fewshot_context"):
            text = render(mg[name], "x", "en", lang, context="c")[0]["content"]
            assert text.count("\n\n") == 3  # three demonstrations, then the item
            assert text.endswith(f"English: x\n{LANGUAGE_NAMES[lang]}:")


def test_a_templates_target_language_reaches_requests_whose_data_has_none(tmp_path):
    data = tmp_path / "data.parquet"
    pd.DataFrame({"item_id": ["1", "2"], "source": ["a", "b"], "src_lang": ["en", "en"],
                  "tgt_lang": ["", "de"]}).to_parquet(data)
    templates = load_templates("src/gendermt/benchmarks/winomt/prompts/translate.yaml")
    assert templates["fr"]["tgt_lang"] == "fr"
    build_inputs(data, templates["fr"], tmp_path / "fr.jsonl")
    assert [r["tgt_lang"] for r in read_jsonl(tmp_path / "fr.jsonl")] == ["fr", "de"]
    build_inputs(data, load_templates(write(tmp_path))["plain"], tmp_path / "p.jsonl")
    assert [r["tgt_lang"] for r in read_jsonl(tmp_path / "p.jsonl")] == ["", "de"]


def test_mt_genevals_config_check_wants_demonstrations_in_every_language(tmp_path):
    from gendermt.benchmarks.mt_geneval.config import check

    spec = {"data": {"root": "resources/mt-geneval", "languages": ["fr", "de", "es"]},
            "templates": "src/gendermt/benchmarks/mt_geneval/prompts/translate.yaml",
            "prompts": ["baseline", "fewshot"],
            "systems": ["copy-source"]}
    check(spec, {})
    text = Path("src/gendermt/benchmarks/mt_geneval/prompts/translate.yaml").read_text(
        encoding="utf-8")
    lacking = tmp_path / "mt-geneval.yaml"
    lacking.write_text(text.replace("\n  es:\n", "\n  xx:\n", 1), encoding="utf-8")
    with pytest.raises(GenderMTError, match=r"^benchmarks\.mt-geneval\.prompts: fewshot has no "
                                            r"demonstrations for es in "):
        check({**spec, "templates": str(lacking)}, {})


def test_demonstrations_by_source_language_with_a_field_of_their_own(tmp_path):
    # GATE X-E's shape: every item's target is English, so its demonstrations are keyed by
    # source language, and each carries the translation to rewrite besides source and target
    text = """
joiner: "\\n"
fragments:
  demo: |-
    {src_lang_name}: {source}
    English: {translation}
    Neutral: {target}
  query: |-
    {demonstrations}

    {src_lang_name}: {source}
    English: {translation}
    Neutral:
demonstrations:
  tr:
    - {source: "O geldi.", translation: "She came.", target: "They came."}
templates:
  fewshot: {version: 1, demonstration: demo, demonstrations_by: src_lang, user: [query]}
"""
    templates = load_templates(write(tmp_path, text))
    [message] = render(templates["fewshot"], "O uyudu.", "tr", "en", translation="He slept.")
    assert message["content"] == ("Turkish: O geldi.\nEnglish: She came.\nNeutral: They came."
                                  "\n\nTurkish: O uyudu.\nEnglish: He slept.\nNeutral:")
    with pytest.raises(GenderMTError, match=r"has no demonstrations for the source language "
                                            r"'fi' \(it has tr\)"):
        render(templates["fewshot"], "x", "fi", "en", translation="y")
    # the field is in the hash; a field one demonstration lacks may not be used
    edited = load_templates(write(tmp_path, text.replace("She came.", "He came.")))
    assert edited["fewshot"]["sha256"] != templates["fewshot"]["sha256"]
    with pytest.raises(GenderMTError, match=r"the demonstration fragment uses \{translation\}"):
        load_templates(write(tmp_path, text.replace('translation: "She came.", ', "")))
    with pytest.raises(GenderMTError, match="demonstrations_by must be tgt_lang or src_lang"):
        load_templates(write(tmp_path, text.replace("by: src_lang", "by: lang")))


def test_gate_x_e_fewshot_renders_each_source_languages_demonstrations(tmp_path):
    from gendermt.benchmarks.gate_x_e import LANGUAGES
    from gendermt.benchmarks.gate_x_e.inputs import build_inputs as gate_x_e_inputs

    templates = load_templates("src/gendermt/benchmarks/gate_x_e/prompts/rewrite.yaml")
    fewshot = templates["fewshot"]
    assert fewshot["answer"] == "neutral" and fewshot["demonstrations_by"] == "src_lang"
    assert sorted(fewshot["demonstrations"]) == sorted(code for code, _ in LANGUAGES.values())
    for code, items in fewshot["demonstrations"].items():
        # the same three cases in every language: a they, a kept noun, a None
        assert [d["target"] for d in items] == [
            "They are reading a book in the garden.", "Their mother called them yesterday.",
            "None"], code
    data = tmp_path / "data.parquet"
    pd.DataFrame({"item_id": ["tr-1-f", "fa-2-m"], "source": ["O bir doktor.", "او دکتر است."],
                  "original": ["She is a doctor.", "He is a doctor."],
                  "src_lang": ["tr", "fa"], "tgt_lang": ["en", "en"]}).to_parquet(data)
    gate_x_e_inputs(data, fewshot, tmp_path / "fewshot.jsonl")
    records = read_jsonl(tmp_path / "fewshot.jsonl")
    first, second = (r["messages"][0]["content"] for r in records)
    assert first.startswith("Turkish: Bahçede kitap okuyor.\n") and "Persian" not in first
    assert first.endswith("Turkish: O bir doktor.\nEnglish: She is a doctor.\n"
                          "Gender-neutral English:")
    assert second.startswith("Persian: او در باغ کتاب می‌خواند.\n")
    assert first.count("\n\n") == 3  # three demonstrations, then the item
    # the other prompts keep their text (and hash) as before
    assert templates["step_by_step"]["sha256"] == "8995a7ddc57307f6"


def test_gate_x_e_config_check_wants_source_language_demonstrations(tmp_path):
    from gendermt.benchmarks.gate_x_e.config import check

    spec = {"data": {"root": "x", "languages": ["turkish", "finnish", "hungarian", "farsi"]},
            "templates": "src/gendermt/benchmarks/gate_x_e/prompts/rewrite.yaml",
            "prompts": ["step_by_step", "fewshot"], "systems": ["rule-rewriter"]}
    check(spec, {})
    text = Path("src/gendermt/benchmarks/gate_x_e/prompts/rewrite.yaml").read_text(encoding="utf-8")
    lacking = tmp_path / "gate-x-e.yaml"
    lacking.write_text(text.replace("\n  hu:\n", "\n  xx:\n", 1), encoding="utf-8")
    with pytest.raises(GenderMTError, match=r"^benchmarks\.gate-x-e\.prompts: fewshot has no "
                                            r"demonstrations for hu \(hungarian\) in "):
        check({**spec, "templates": str(lacking)}, {})
    check({**spec, "templates": str(lacking), "data": {"root": "x", "languages": ["turkish"]}},
          {})
    by_target = tmp_path / "by-target.yaml"
    by_target.write_text(text.replace("    demonstrations_by: src_lang\n", ""), encoding="utf-8")
    with pytest.raises(GenderMTError, match="keyed by target language"):
        check({**spec, "templates": str(by_target)}, {})
