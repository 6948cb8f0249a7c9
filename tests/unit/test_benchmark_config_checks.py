"""Each benchmark's own config checks (its contract's `check`), as plain Python: they stop the
workflow at start-up (gendermt.config.checks.check_config calls them) naming the key."""

from __future__ import annotations

import copy

import pytest
import yaml

from gendermt.config.checks import check_config
from gendermt.core.errors import GenderMTError

from ..conftest import ROOT


@pytest.fixture(scope="module")
def default():
    return yaml.safe_load((ROOT / "config/config.yaml").read_text(encoding="utf-8"))


def edited(config, edit):
    config = copy.deepcopy(config)
    edit(config)
    return config


@pytest.mark.parametrize("edit, message", [
    (lambda c: c["benchmarks"]["gambit"].setdefault("language_systems", {}).update(
        nmt={"de": "copy-source"}),
     r"^benchmarks.gambit.language_systems.nmt names the language 'de', which is not among"),
    (lambda c: c["benchmarks"]["gambit"].setdefault("language_systems", {}).update(
        nmt={"fr": "nope"}),
     r"^benchmarks.gambit.language_systems.nmt.fr names 'nope', which is not defined"),
    (lambda c: c["benchmarks"]["gambit"].update(detector="nope"),
     r"^benchmarks.gambit.detector is 'nope', which is not among the detectors"),
    (lambda c: c["benchmarks"]["gambit"]["detectors"]["lexicon"]["lexicons"].pop("el"),
     r"^benchmarks.gambit.detectors.lexicon has no lexicon for \['el'\]"),
    (lambda c: c["benchmarks"]["gambit"].update(validation={"de": "x.csv"}),
     r"^benchmarks.gambit.validation names \['de'\], which are not among"),
    (lambda c: c["benchmarks"]["neogate"].update(paradigm_systems={"nope": ["copy-source"]}),
     r"^benchmarks.neogate.paradigm_systems names paradigms \['nope'\]"),
    (lambda c: c["benchmarks"]["conga"].setdefault("annotations", {}).update(
        annotator={"system": "nope"}),
     r"^benchmarks.conga.annotations.annotator.system 'nope' is not defined"),
    (lambda c: c["benchmarks"]["fairtranslate"].update(
        clean_outlier={"enabled": True}, metrics=["bleu"]),
     r"^benchmarks.fairtranslate.clean_outlier is enabled but `comet` is not among"),
])
def test_a_benchmark_check_names_the_key(default, edit, message):
    check_config(default)  # the default passes
    with pytest.raises(GenderMTError, match=message):
        check_config(edited(default, edit))


@pytest.mark.parametrize("edit, message", [
    (lambda c: c["benchmarks"]["fairtranslate"].update(system_prompts={"nope": ["baseline"]}),
     r"^benchmarks.fairtranslate.system_prompts.nope: \['baseline'\] must name a configured"),
    (lambda c: c["benchmarks"]["gate-x-e"].update(decoding={"nope": {"max_new_tokens": 4}}),
     r"^benchmarks.gate-x-e.decoding names 'nope', which is not defined"),
    (lambda c: c["benchmarks"]["gate-x-e"].update(
        decoding={"smollm2-135m": {"num_beams": 4}}),
     r"^benchmarks.gate-x-e.decoding.smollm2-135m: backend 'hf-causal' has no setting"),
    (lambda c: c["benchmarks"]["fairtranslate"].update(metrics=["bleu", "bertscore"]),
     r"^a benchmark lists the metric bertscore, but scoring.bertscore"),
])
def test_the_generic_benchmark_checks_are_plain_python(default, edit, message):
    with pytest.raises(GenderMTError, match=message):
        check_config(edited(default, edit))
