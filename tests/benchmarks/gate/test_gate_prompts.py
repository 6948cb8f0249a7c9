"""The rewriter prompts of GATE X-E and GATE: they load as versioned templates, render
every placeholder, and their worked examples parse as the answers they show."""

from __future__ import annotations

import re

from gendermt.benchmarks.gate import inputs as gate_inputs
from gendermt.benchmarks.gate_x_e import inputs as gxe_inputs
from gendermt.benchmarks.gate_x_e.parse import parse_answer
from gendermt.config.templates import load_templates

from ...conftest import ROOT

PROMPTS = ROOT / "src" / "gendermt" / "benchmarks"


def test_gate_x_e_prompt_renders_source_and_translation():
    template = load_templates(PROMPTS / "gate_x_e/prompts/rewrite.yaml")["step_by_step"]
    messages = gxe_inputs.render(template, "Onu gördüm.", "I saw her.", "tr")
    assert [m["role"] for m in messages] == ["system", "user"]
    user = messages[-1]["content"]
    assert user.rstrip().endswith("Source: Onu gördüm.\nTranslation: I saw her.")
    assert "Turkish" in user and not re.search(r"\{\w+\}", user)
    for step in range(1, 6):
        assert f"Step {step}." in user
    assert "Answer: None" in user


def test_gate_x_e_prompt_examples_are_answers_the_parser_reads():
    template = load_templates(PROMPTS / "gate_x_e/prompts/rewrite.yaml")["step_by_step"]
    examples = template["user"].split("Example ")[1:]
    parsed = [parse_answer(e.split("Now the sentence")[0]) for e in examples]
    assert [p.none for p in parsed] == [False, True, False]
    assert parsed[0].variants["neutral"] == "Their father left them the car in his will."


def test_gate_prompt_renders_gender_and_language():
    template = load_templates(PROMPTS / "gate/prompts/rewrite.yaml")["rewrite"]
    messages = gate_inputs.render(template, "The doctor came.", "La doctora vino.",
                                  "masculine", "es")
    user = messages[-1]["content"]
    assert "Spanish translation: La doctora vino." in user and "is masculine" in user
    assert not re.search(r"\{\w+\}", user)
