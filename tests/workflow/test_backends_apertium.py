"""Apertium, the rule-based backend (needs the Debian packages; CI installs them)."""

import json
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest

from gendermt.core.backends import check_system
from gendermt.core.errors import GenderMTError, MissingResourceError
from gendermt.translation.backends import Request, build_backend, system_gpus
from gendermt.translation.backends.apertium import installed_modes

from ..workflow_support import RUN_TIMEOUT, copy_project, explain, job_stats, snakemake

NEEDED = {"eng-spa", "es-fr", "spa-ita"}
needs_apertium = pytest.mark.skipif(
    not installed_modes() >= NEEDED,
    reason="Apertium with eng-spa, es-fr and spa-ita is not installed (apt-get install "
           "apertium apertium-eng-spa apertium-spa-ita apertium-fr-es); CI installs it")


def test_settings_are_checked():
    assert system_gpus({"backend": "apertium", "modes": ["eng-spa"]}) == 0  # CPU only
    with pytest.raises(GenderMTError, match="modes must be a non-empty list"):
        check_system({"backend": "apertium", "modes": "eng-spa"})
    with pytest.raises(GenderMTError, match=r"needs \['modes'\]"):
        check_system({"backend": "apertium"})


def test_missing_apertium_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(MissingResourceError, match="apt-get install .*apertium-eng-spa"):
        build_backend({"backend": "apertium", "modes": ["eng-spa"]}, pd.DataFrame())


@needs_apertium
def test_pivots_and_defaults_to_the_masculine():
    sources = ["The nurse is here.", "The doctor said that she\nwill come tomorrow.",
               "I am tired."]
    batch = [Request(f"i{n}", s) for n, s in enumerate(sources)]
    en_fr = build_backend({"backend": "apertium", "modes": ["eng-spa", "es-fr"]}, None)
    fr = en_fr.translate(batch)
    assert len(fr) == 3 and fr[0] == "L'infirmier est ici."
    assert "*" not in " ".join(fr)  # unknown words are not marked
    en_it = build_backend({"backend": "apertium", "modes": ["eng-spa", "spa-ita"]}, None)
    assert en_it.translate(batch[:1]) == ["L'infermiere è qui."]
    assert en_fr.identity()["packages"]["apertium-fr-es"]  # versions are part of the key
    with pytest.raises(MissingResourceError, match=r"no mode\(s\) \['eng-deu'\]"):
        build_backend({"backend": "apertium", "modes": ["eng-deu"]}, None)


@needs_apertium
def test_a_chain_per_target_language_translates_a_mixed_batch_in_order():
    per_target = {"backend": "apertium",
                  "modes": {"es": ["eng-spa"], "fr": ["eng-spa", "es-fr"],
                            "it": ["eng-spa", "spa-ita"]}}
    check_system(per_target)
    backend = build_backend(per_target, None)
    batch = [Request("a", "The nurse is here.", [], "en", "fr"),
             Request("b", "The nurse is here.", [], "en", "es"),
             Request("c", "The nurse is here.", [], "en", "it"),
             Request("d", "I am tired.", [], "en", "fr")]
    out = backend.translate(batch)
    assert out[0] == "L'infirmier est ici." and out[2] == "L'infermiere è qui."
    assert out[1] == build_backend({"backend": "apertium", "modes": ["eng-spa"]},
                                   None).translate(batch[1:2])[0]
    assert out[3] == build_backend({"backend": "apertium", "modes": ["eng-spa", "es-fr"]},
                                   None).translate(batch[3:4])[0]
    with pytest.raises(GenderMTError, match="item x is to be translated into 'de'"):
        backend.translate([Request("x", "Hello.", [], "en", "de")])
    with pytest.raises(GenderMTError, match="one per target language"):
        check_system({"backend": "apertium", "modes": {"es": []}})


# Twelve consecutive English sources of MT-GenEval's fr counterfactual test set (Amazon,
# CC BY-SA 3.0: shared/data/mt-geneval), on which `apertium -u` over the whole batch gave 5
# lines otherwise when the batch was reversed.
MT_GENEVAL_LINES = (Path(__file__).parents[1] / "data" / "mt_geneval_fr_sources.txt").read_text(
    encoding="utf-8").splitlines()


@needs_apertium
def test_each_line_is_translated_as_if_alone():
    en_fr = build_backend({"backend": "apertium", "modes": ["eng-spa", "es-fr"]}, None)
    batch = [Request(f"i{n}", s) for n, s in enumerate(MT_GENEVAL_LINES)]
    forward = en_fr.translate(batch)
    assert en_fr.translate(batch[::-1])[::-1] == forward
    assert [en_fr.translate([r])[0] for r in batch[4:8]] == forward[4:8]
    assert all(forward) and "\0" not in "".join(forward)
    # as `apertium -u` gives a file of the line alone, characters of Apertium's stream
    # format (escaped by its deformatter) and a line with no sentence end included
    for line in ["The nurse [sic] paid $5 for a/b @home {ok} \\ ^x^.", "I am tired",
                 MT_GENEVAL_LINES[5]]:
        alone = line
        for mode in ["eng-spa", "es-fr"]:
            alone = subprocess.run(["apertium", "-u", mode], input=alone + "\n",
                                   capture_output=True, text=True, check=True).stdout.strip()
        assert en_fr.translate([Request("x", line)]) == [alone]


@needs_apertium
def test_the_cache_key_changed_with_the_line_by_line_mode():
    # answers of the batch-dependent version are not served to this one
    en_es = build_backend({"backend": "apertium", "modes": ["eng-spa"]}, None)
    assert en_es.request_version == 2


PROMPTS = ["baseline", "moral"]  # two of the four: enough to show that they share outputs


@needs_apertium
@pytest.mark.workflow
def test_the_apertium_config_runs_the_fairtranslate_benchmark(tmp_path):
    """Apertium's jobs of config/apertium.yaml, up to the scores (the tables and figures
    are the benchmark's own, tested on the default run; the whole DAG is checked by a dry
    run in test_study_configs.py)."""
    workdir = copy_project(tmp_path / "project")
    results = workdir / "results" / "default" / "fairtranslate"
    out = results / "translations" / "apertium-en-fr"
    for prompt in PROMPTS:  # one after the other, so that the second finds the first's outputs
        proc = snakemake(workdir,
                         f"results/default/fairtranslate/scores/apertium-en-fr/{prompt}.parquet",
                         "--cores", "2", "--configfile", "config/config.yaml",
                         "config/apertium.yaml", timeout=RUN_TIMEOUT)
        assert proc.returncode == 0, explain(proc)
        assert job_stats(proc.stdout + proc.stderr)["translate"] == 1
    metas = {p: json.loads((out / f"{p}.meta.json").read_text()) for p in PROMPTS}
    # Apertium reads the source only: one translate_sources job translates the distinct
    # sources once, and every prompt's job takes its outputs from it (sending nothing)
    shared = results / "sources" / "apertium-en-fr.jsonl"
    assert len(shared.read_text().splitlines()) == 42  # the sample's distinct sources
    for prompt in PROMPTS:
        assert metas[prompt]["requests_sent"] == 0
        assert metas[prompt]["cached_items"] == metas[prompt]["items"]
    hyps = [json.loads(line)["hypothesis"] for line in (out / "baseline.jsonl").open()]
    assert sum("infirmier" in h for h in hyps) > 0 and not any("infirmière" in h for h in hyps)
    log = (workdir / "logs" / "default" / "fairtranslate" / "translate_sources"
           / "apertium-en-fr.log").read_text()
    assert "items/s" in log and "tokens/s" in log
    for prompt in PROMPTS:
        scores = pd.read_parquet(results / "scores" / "apertium-en-fr" / f"{prompt}.parquet")
        assert scores["item_id"].nunique() == metas[prompt]["items"]  # one row per metric
