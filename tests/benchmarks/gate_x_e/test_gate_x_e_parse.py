"""The parser of rewriter answers, on clean and messy LLM outputs."""

from __future__ import annotations

import pytest

from gendermt.benchmarks.gate_x_e.parse import parse_answer

NEUTRAL = "They gave them their umbrella."
FEMININE = "She gave her her umbrella."
MASCULINE = "He gave him his umbrella."
ALL = {"neutral": NEUTRAL, "feminine": FEMININE, "masculine": MASCULINE}


@pytest.mark.parametrize("raw", [
    f"Neutral: {NEUTRAL}\nFeminine: {FEMININE}\nMasculine: {MASCULINE}",
    # Markdown, bold labels, quotes, numbering, CRLF
    f"**Neutral:** \"{NEUTRAL}\"\r\n**Feminine:** \"{FEMININE}\"\r\n**Masculine:** "
    f"\"{MASCULINE}\"",
    f"1. Neutral variant: {NEUTRAL}\n2. Female variant: {FEMININE}\n3. Male variant: "
    f"{MASCULINE}",
    f"- neutral translation: `{NEUTRAL}`\n- feminine translation: `{FEMININE}`\n"
    f"- masculine translation: `{MASCULINE}`",
    # other order, labels in their own lines, reasoning before
    f"Step 1. Individual A: she, her.\nStep 4. AGMEs: A, B.\nMasculine:\n{MASCULINE}\n"
    f"Neutral:\n{NEUTRAL}\nFeminine:\n{FEMININE}\n",
    # a draft answer in the reasoning, the final one last
    f"Neutral: They gave her their umbrella.\nWait, 'her' is an AGME too.\n"
    f"Neutral: {NEUTRAL}\nFeminine: {FEMININE}\nMasculine: {MASCULINE}",
    f"### Answer\n> **Gender-neutral**: {NEUTRAL}\n> **Female**: {FEMININE}\n"
    f"> **Male**: {MASCULINE}",
])
def test_three_variants(raw):
    answer = parse_answer(raw)
    assert not answer.none and answer.missing == []
    assert answer.variants == ALL


@pytest.mark.parametrize("raw", [
    "None", "none.", "Answer: None", "**Answer:** None", "Step 4. AGMEs: none.\nAnswer: None",
    f"Neutral: {NEUTRAL}\n...no, B is marked by the source.\nFinal answer: None",
    "Neutral: None\nFeminine: None\nMasculine: None",
])
def test_none_means_keep_the_original(raw):
    answer = parse_answer(raw)
    assert answer.none
    assert answer.rewrite("neutral", "The girl appeared sick.") == "The girl appeared sick."


@pytest.mark.parametrize("raw", ["", "I cannot help with that.",
                                 "Step 1. Individual A: she"])
def test_unusable_output_counts_as_wrong(raw):
    answer = parse_answer(raw)
    assert not answer.none and answer.variants == {}
    assert answer.missing == ["neutral", "feminine", "masculine"]
    assert answer.rewrite("feminine", "He came.") == ""


def test_truncated_output_keeps_what_it_has():
    answer = parse_answer(f"Neutral: {NEUTRAL}\nFeminine: {FEMININE}\nMascu")
    assert answer.variants == {"neutral": NEUTRAL, "feminine": FEMININE}
    assert answer.missing == ["masculine"]
    assert answer.rewrite("masculine", "x") == ""


def test_female_is_not_read_as_male():
    answer = parse_answer(f"Female: {FEMININE}\nMale: {MASCULINE}\nNeutral: {NEUTRAL}")
    assert answer.variants == ALL
