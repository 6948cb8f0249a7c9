"""Every study config builds its whole DAG offline (a dry run), combined with the systems
of the five papers, and so does config/apertium.yaml."""

import pytest

from .conftest import ROOT
from .workflow_support import copy_project, explain, job_stats, snakemake

STUDIES = sorted(p.name for p in (ROOT / "config" / "study").glob("*.yaml")
                 if p.name != "systems.yaml")


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    return copy_project(tmp_path_factory.mktemp("study") / "project")


@pytest.fixture(scope="module")
def dry_runs(project):
    return {study: snakemake(project, "-n", "--configfile", "config/study/systems.yaml",
                             f"config/study/{study}") for study in STUDIES}


@pytest.mark.parametrize("study", STUDIES)
def test_study_config_builds_its_dag_offline(dry_runs, study):
    proc = dry_runs[study]
    assert proc.returncode == 0, explain(proc)
    assert job_stats(proc.stdout + proc.stderr).get("translate", 0) > 0


def test_fairtranslate_study_is_the_papers(dry_runs):
    proc = dry_runs["fairtranslate.yaml"]
    stats = job_stats(proc.stdout + proc.stderr)
    # 4 LLMs × 4 prompts, each scored with sacrebleu and COMET
    assert (stats["translate"], stats["score"], stats["comet"]) == (16, 16, 16)


def test_apertium_config_builds_its_dag(project):
    proc = snakemake(project, "-n", "--configfile", "config/apertium.yaml")
    assert proc.returncode == 0, explain(proc)
    assert job_stats(proc.stdout + proc.stderr)["translate"] == 20


def test_every_system_of_the_papers_is_valid():
    import yaml

    from gendermt.backends import check_system

    systems = yaml.safe_load((ROOT / "config" / "study" / "systems.yaml").read_text())
    assert set(systems) == {"systems"}
    models = set()
    for settings in systems["systems"].values():
        check_system(settings)
        models.add(settings.get("model"))
        if settings["backend"] in ("hf-causal", "vllm", "openai-compatible"):
            assert settings.get("temperature") == 0  # greedy, as the papers
    for model in ["facebook/nllb-200-distilled-600M", "facebook/nllb-200-1.3B",
                  "facebook/m2m100_418M", "Helsinki-NLP/opus-mt-en-it",
                  "facebook/mbart-large-50-one-to-many-mmt", "google/gemma-2-2b-it",
                  "mistralai/Mistral-7B-Instruct-v0.3", "meta-llama/Llama-3.1-8B-Instruct",
                  "meta-llama/Llama-3.3-70B-Instruct", "Unbabel/TowerInstruct-7B-v0.1",
                  "mistralai/Mixtral-8x7B-Instruct-v0.1", "meta-llama/Llama-2-70b-chat-hf",
                  "utter-project/EuroLLM-1.7B-Instruct", "gpt-4",
                  "anthropic/claude-3.5-sonnet"]:
        assert model in models, model
