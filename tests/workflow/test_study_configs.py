"""Every study config, combined with the systems of the five papers, validates against the
config schema and builds its whole DAG offline (a dry run); so does config/apertium.yaml over
the default. Study configs stand alone: naming config files on the command line replaces the
embedded default (see the Snakefile)."""

import pytest
import yaml

from ..conftest import ROOT
from ..study_support import STUDIES, merged, runnable, study_files, user_data, with_user_data
from ..workflow_support import copy_project, explain, job_stats, planned_jobs, snakemake


@pytest.mark.parametrize("files", [
    ["config/config.yaml"], ["config/config.yaml", "config/apertium.yaml"],
    *[["config/study/systems.yaml", f"config/study/{study}"] for study in STUDIES],
], ids=lambda files: "+".join(f.split("/")[-1] for f in files))
def test_configs_validate_against_the_schema(files, config_schema):
    from snakemake.utils import validate

    validate(merged(*files), config_schema)


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    # data the user provides for a study (not shipped, not downloadable here): the dry runs
    # get the project's samples (each benchmark's contract's `samples`), which are in the
    # same published formats, at those paths; public data from ../shared/data
    return with_user_data(copy_project(tmp_path_factory.mktemp("study") / "project"))


@pytest.fixture(scope="module")
def dry_runs(project):
    # with the revision the user gives of FairTranslate's Hub data (none was found)
    return {study: snakemake(project, "-n", "--configfile", *study_files(study))
            for study in STUDIES}


@pytest.mark.parametrize("study", STUDIES)
def test_study_config_builds_its_dag_offline(dry_runs, study):
    if not runnable(study):
        pytest.skip(f"{study} reads the public data in ../shared/data, which is not here")
    proc = dry_runs[study]
    assert proc.returncode == 0, explain(proc)
    assert job_stats(proc.stdout + proc.stderr).get("translate", 0) > 0


def test_fairtranslate_study_is_the_papers(dry_runs):
    proc = dry_runs["fairtranslate.yaml"]
    stats = job_stats(proc.stdout + proc.stderr)
    # 4 LLMs × 4 prompts, each scored with sacrebleu; one COMET job over all of them
    assert (stats["translate"], stats["score"], stats["comet"]) == (16, 16, 1)


def test_apertium_config_builds_its_dag(project):
    proc = snakemake(project, "-n", "--configfile", "config/config.yaml", "config/apertium.yaml")
    assert proc.returncode == 0, explain(proc)
    jobs = planned_jobs(proc.stdout + proc.stderr)
    fairtranslate = [wc["system"] for rule, wc in jobs
                     if rule == "translate" and wc.get("benchmark") == "fairtranslate"]
    assert len(fairtranslate) == 20 and fairtranslate.count("apertium-en-fr") == 4


def test_every_system_of_the_papers_is_valid():

    from gendermt.core.backends import check_system

    systems = yaml.safe_load((ROOT / "config" / "study" / "systems.yaml").read_text())
    assert set(systems) == {"systems"}
    models = set()
    for settings in systems["systems"].values():
        check_system(settings)
        models.add(settings.get("model"))
        if settings["backend"] in ("hf-causal", "vllm", "openai-compatible"):
            # greedy, as the papers; ConGA's TowerInstruct ran at 0.2 (its §4)
            expected = 0.2 if settings.get("model") == "thinkverse/towerinstruct" else 0
            assert settings.get("temperature") == expected, settings
    for model in ["facebook/nllb-200-distilled-600M", "facebook/nllb-200-1.3B",
                  "facebook/m2m100_418M", "Helsinki-NLP/opus-mt-en-it",
                  "facebook/mbart-large-50-one-to-many-mmt", "google/gemma-2-2b-it",
                  "mistralai/Mistral-7B-Instruct-v0.3", "meta-llama/Llama-3.1-8B-Instruct",
                  "meta-llama/Llama-3.3-70B-Instruct", "Unbabel/TowerInstruct-7B-v0.1",
                  "mistralai/Mixtral-8x7B-Instruct-v0.1", "meta-llama/Llama-2-70b-chat-hf",
                  "utter-project/EuroLLM-1.7B-Instruct", "gpt-4",
                  "anthropic/claude-3.5-sonnet"]:
        assert model in models, model


def test_conga_temperature_is_the_papers_and_leaves_neogate_greedy():
    """ConGA §4: TowerInstruct "with a temperature setting of 0.2"; one truth in both files,
    and combining them does not change Neo-GATE's greedy TowerInstruct."""
    both = merged("config/study/systems.yaml", "config/study/conga.yaml")
    conga = both["benchmarks"]["conga"]["systems"]
    towers = [s for s in conga if "tower" in s]
    assert towers and all(both["systems"][s]["temperature"] == 0.2 for s in towers)
    assert both["systems"]["towerinstruct-7b-ollama"]["temperature"] == 0.2
    assert both["systems"]["towerinstruct-7b"]["temperature"] == 0
    text = (ROOT / "config" / "study" / "systems.yaml").read_text(encoding="utf-8")
    assert "a temperature of 0\"" not in text


def test_fairtranslate_study_runs_the_authors_pipeline(project):
    """The study config's planned jobs carry the authors' pipeline in their params: the
    clean_outlier filter (tables and figures), NLTK BLEU-m4 among the metrics scored, and
    their normaliser as the scoring option (sacreBLEU jobs and the COMET job)."""
    from ..dag_params import job_params

    jobs = job_params(project, *study_files("fairtranslate.yaml"))
    ours = [j for j in jobs if j["rule"].startswith("fairtranslate_")
            or j["wildcards"].get("benchmark") == "fairtranslate"]
    score = [j for j in ours if j["rule"] == "score"]
    assert len(score) == 16
    for job in score:
        assert "bleu_nltk_m4" in job["params"]["metrics"]
        assert job["params"]["normalize"] == "non_binary_standardization"
    comet = [j for j in ours if j["rule"] == "comet"]
    assert [j["params"]["settings"]["normalize_hypotheses"] for j in comet] == [
        "non_binary_standardization"]
    for rule in ("fairtranslate_tables", "fairtranslate_figures"):
        (job,) = [j for j in ours if j["rule"] == rule]
        assert job["params"]["clean_outlier"] == {
            "enabled": True, "threshold": 0.6,
            "systems": ["gemma-2-2b", "mistral-7b", "llama-3.1-8b", "llama-3.3-70b"]}
        assert job["params"]["metrics"][0] == "bleu_nltk_m4"
    # the default: no filter (no COMET), no normaliser
    default = job_params(project, "config/config.yaml")
    (tables,) = [j for j in default if j["rule"] == "fairtranslate_tables"]
    assert tables["params"]["clean_outlier"]["enabled"] is False
    assert {j["params"]["normalize"] for j in default
            if j["rule"] == "score" and j["wildcards"]["benchmark"] == "fairtranslate"} == {None}


def test_public_study_runs_each_apertium_pair_in_its_own_language(dry_runs):
    # WinoMT: 4 published systems × the paper's eight languages (Amazon: no uk), the paper's
    # academic systems (sota) on fr and de, one Apertium system per language pair (its
    # system_prompts), scored apart; the adjective experiment: Google and Bing in every
    # language; MT-GenEval's one Apertium system has a chain per target
    if not runnable("public.yaml"):
        pytest.skip("public.yaml reads the public data in ../shared/data, which is not here")
    proc = dry_runs["public.yaml"]
    assert proc.returncode == 0, explain(proc)
    jobs = planned_jobs(proc.stdout + proc.stderr)
    langs = ("es", "fr", "it", "ru", "uk", "he", "ar", "de")
    winomt = {(w["system"], w["prompt"]) for rule, w in jobs
              if rule == "translate" and w.get("benchmark") == "winomt"}
    assert winomt == {(s, p) for s in ("google", "bing", "systran", "aws")
                      for p in langs} - {("aws", "uk")} | {
        ("sota", "fr"), ("sota", "de"), ("apertium-en-es", "es"),
        ("apertium-en-fr-via-es", "fr"), ("apertium-en-it-via-es", "it")}
    # WinoMT's own rules call the prompt (a language) {lang}
    apart = {(w["system"], w["lang"]) for rule, w in jobs if rule == "winomt_gender_apart"}
    assert apart == {("apertium-en-es", "es"), ("apertium-en-fr-via-es", "fr"),
                     ("apertium-en-it-via-es", "it"), ("sota", "fr"), ("sota", "de")} | {
        ("aws", p) for p in langs if p != "uk"}
    adjectives = {(w["system"], w["lang"]) for rule, w in jobs if rule == "winomt_adjectives"}
    assert adjectives == {(s, p) for s in ("google", "bing") for p in langs}
    stats = job_stats(proc.stdout + proc.stderr)
    assert stats["winomt_gender"] == 8


def test_the_samples_stand_in_for_the_user_data_their_contracts_declare():
    """The stand-ins come from the contracts, a {prompt} path once per prompt: a new study
    config edits no shared test."""
    found = user_data(merged(*study_files("gambit.yaml")))
    assert found["data/gambit/validation-el.csv"] == "resources/gambit/validation/el.csv"
    assert found["data/gambit/outputs/google-translate/fr.tsv"] == (
        "resources/gambit/translations/masculine-default/fr.tsv")
    assert all((ROOT / sample).is_file() for study in STUDIES
               for sample in user_data(merged(*study_files(study))).values())
