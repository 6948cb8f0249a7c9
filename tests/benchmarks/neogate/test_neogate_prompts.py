"""Neo-GATE prompts: the run grid, demonstration selection, chat rendering, output extraction;
and every study config against the config schema."""

from __future__ import annotations

import json

import pytest
import yaml

from gendermt.benchmarks.neogate.data import load
from gendermt.benchmarks.neogate.extract import extract
from gendermt.benchmarks.neogate.inputs import (
    render,
    resolve_templates,
    select_demonstrations,
    study_runs,
    tag_counts,
)
from gendermt.benchmarks.neogate.paradigm import MappingError, load_mapping
from gendermt.core.errors import GenderMTError

from ...conftest import ROOT

NEOGATE = ROOT / "resources" / "neogate"
TEMPLATES = ROOT / "src/gendermt/benchmarks/neogate/prompts/translate.yaml"
PARADIGMS = {"asterisk": {"mapping": str(NEOGATE / "asterisk.json")},
             "schwa": {"mapping": str(NEOGATE / "schwa.json")}}


@pytest.fixture(scope="module")
def templates():
    return resolve_templates(TEMPLATES)


@pytest.fixture(scope="module")
def dev():
    mappings = {n: load_mapping(s["mapping"]) for n, s in PARADIGMS.items()}
    return load(NEOGATE / "Neo-GATE-dev.tsv", mappings, "dev")


def test_the_paper_grid_has_20_runs_per_system(templates):
    spec = {"prompts": ["zeroshot", "direct", "binary", "ternary"], "shots": [1, 4, 8],
            "paradigms": PARADIGMS}
    runs = study_runs(spec, templates)
    assert len(runs) == 2 * (1 + 3 * 3)
    assert runs["zeroshot-schwa"]["shots"] == 0
    assert runs["ternary-8shot-asterisk"] == {
        "name": "ternary-8shot-asterisk", "format": "ternary", "shots": 8,
        "paradigm": "asterisk", "neomorphemes": "*", "phrase": "the neomorpheme ‘*’"}
    assert runs["binary-4shot-schwa"]["neomorphemes"] == "əɜ"


def test_templates_are_versioned_and_hashed(templates):
    assert set(templates) == {"zeroshot", "direct", "binary", "ternary"}
    assert not templates["zeroshot"]["few_shot"] and templates["direct"]["few_shot"]
    assert templates["binary"]["extract_after"] == "[Italian, neomorpheme]"
    assert len({t["sha256"] for t in templates.values()}) == 4


def test_demonstrations_are_deterministic_nested_and_balanced(dev):
    eight = select_demonstrations(dev, 8)
    assert len(set(eight)) == 8
    for k in (1, 4):
        assert select_demonstrations(dev, k) == eight[:k]
    counts = {int(n): tag_counts(a) for n, a in zip(dev["number"], dev["annotation_tagged"],
                                                      strict=True)}
    mean = sum(sum(c) for c in counts.values()) / len(counts)
    for k in (4, 8):
        chosen = [counts[n] for n in eight[:k]]
        assert abs(sum(sum(c) for c in chosen) / k - mean) <= 0.5
        assert abs(sum(s for s, _ in chosen) - sum(p for _, p in chosen)) <= 1
    # the first pick is the entry whose tag count is closest to the mean
    assert abs(sum(counts[eight[0]]) - mean) == min(abs(sum(c) - mean)
                                                    for c in counts.values())
    with pytest.raises(GenderMTError, match="dev set has 10"):
        select_demonstrations(dev, 11)


def test_zero_shot_is_one_user_message(templates, dev):
    run = {"paradigm": "asterisk", "phrase": "the neomorpheme ‘*’"}
    messages = render(templates["zeroshot"], "I like it.", run, dev.iloc[:0])
    assert messages == [{"role": "user", "content":
                         "Translate the following English sentence into Italian using the "
                         "neomorpheme ‘*’. To do so, the neomorpheme ‘*’ should be used as a "
                         "substitute for masculine and feminine morphemes in words that refer "
                         "to human beings. [English] <I like it.> [Italian]"}]


def test_few_shot_formats_render_demonstrations_per_paradigm(templates, dev):
    run = {"paradigm": "schwa", "phrase": "the neomorphemes ‘ə’ (singular) and ‘ɜ’ (plural)"}
    demos = dev.set_index("number").loc[[14, 15]].reset_index()
    messages = render(templates["ternary"], "Hi.", run, demos)
    assert [m["role"] for m in messages] == ["user", "assistant", "user", "assistant", "user"]
    assert messages[0]["content"].startswith("Translate the following English sentence")
    assert messages[0]["content"].endswith("[English] <The waiters are tired.> "
                                           "[Italian, masculine]")
    assert messages[1]["content"] == (
        "<I camerieri sono stanchi.> [Italian, feminine] <Le cameriere sono stanche.> "
        "[Italian, neomorpheme] <Lɜ camerierɜ sono stanchɜ.>")
    assert messages[2]["content"] == "[English] <A friend of yours called.> [Italian, masculine]"
    assert messages[-1]["content"] == "[English] <Hi.> [Italian, masculine]"
    binary = render(templates["binary"], "Hi.", {**run, "paradigm": "asterisk"}, demos)
    assert binary[1]["content"] == ("<I camerieri sono stanchi.> [Italian, neomorpheme] "
                                    "<L* camerier* sono stanch*.>")
    direct = render(templates["direct"], "Hi.", {**run, "paradigm": "asterisk"}, demos)
    assert direct[1]["content"] == "<L* camerier* sono stanch*.>"
    assert direct[-1]["content"] == "[English] <Hi.> [Italian]"


@pytest.mark.parametrize("raw,label,expected", [
    ("<Lə amicə.>", None, ("Lə amicə.", "bracketed")),
    ("[Italian] <Lə amicə.>\n[English] <More.> [Italian] <Altro.>", None,
     ("Lə amicə.", "bracketed")),
    ("<I miei amici.> [Italian, neomorpheme] <L* mi* amic*.>", "[Italian, neomorpheme]",
     ("L* mi* amic*.", "bracketed")),
    ("<I miei amici.> [ italian,Neomorpheme ]\n<L* mi*\namic*.>", "[Italian, neomorpheme]",
     ("L* mi* amic*.", "bracketed")),
    ("Lə miə amicə.", None, ("Lə miə amicə.", "plain")),
    ("Lə miə\namicə.", "[Italian, neomorpheme]", ("Lə miə amicə.", "plain")),
    ("<I miei amici.> [Italian, gendered]", "[Italian, neomorpheme]", ("", "unextractable")),
    ("<Lə miə amicə.", None, ("", "unextractable")),
    ("[Italian, neomorpheme] <>", "[Italian, neomorpheme]", ("", "unextractable")),
    ("   ", None, ("", "unextractable")),
])
def test_extraction(raw, label, expected):
    assert extract(raw, label) == expected


def test_plain_outputs_can_be_refused():
    assert extract("Lə miə amicə.", None, accept_plain=False) == ("", "unextractable")


# ------------------------------------------------------------------ study configs
def test_the_neogate_study_lists_the_paper_systems_and_grid(templates):
    config = yaml.safe_load((ROOT / "config/study/neogate.yaml").read_text(encoding="utf-8"))
    spec = config["benchmarks"]["neogate"]
    spec["paradigms"] = {n: {"mapping": str(ROOT / s["mapping"])}
                         for n, s in spec["paradigms"].items()}
    assert len(study_runs(spec, templates)) == 20
    models = {config["systems"][s].get("model") for s in spec["systems"]}
    assert {"gpt-4", "Unbabel/TowerInstruct-7B-v0.1", "mistralai/Mixtral-8x7B-Instruct-v0.1",
            "meta-llama/Llama-2-70b-chat-hf"} <= models
    for name in spec["systems"]:
        if config["systems"][name]["backend"] != "reference-oracle":
            assert config["systems"][name]["temperature"] == 0, name


def test_a_paradigm_spelt_with_letters_must_name_its_neomorphemes(tmp_path, templates):
    # the paper's 'u' paradigm: read off its forms, its characters would be none
    forms = json.loads((NEOGATE / "asterisk.json").read_text(encoding="utf-8"))
    u = tmp_path / "u.json"
    u.write_text(json.dumps({tag: form.replace("*", "u") for tag, form in forms.items()}),
                 encoding="utf-8")
    spec = {"prompts": ["zeroshot"], "paradigms": {"upar": {"mapping": str(u)}}}
    with pytest.raises(MappingError, match=r"paradigm 'upar'.*neomorphemes:"):
        study_runs(spec, templates)
    spec["paradigms"]["upar"]["neomorphemes"] = "u"
    run = study_runs(spec, templates)["zeroshot-upar"]
    assert run["neomorphemes"] == "u" and run["phrase"] == "the neomorpheme ‘u’"
    # one letter-only form among symbol forms is enough to stop
    mixed = tmp_path / "mixed.json"
    mixed.write_text(json.dumps({**forms, "<ENDS>": "u"}), encoding="utf-8")
    with pytest.raises(MappingError, match=r"<ENDS> → 'u'"):
        study_runs({"prompts": ["zeroshot"], "paradigms": {"m": {"mapping": str(mixed)}}},
                   templates)
