"""config/study/winomt-2026.yaml (issue 50): with keys in the environment (fake ones: nothing
is sent in a dry run) it plans offline, every service in every language beside its 2019
output and the comparison per language; without keys a run stops at start-up, naming the
missing variables, before any job (nothing is sent, nothing is written)."""

import os
import subprocess

import pytest

from ..study_support import runnable, with_user_data
from ..workflow_support import copy_project, explain, planned_jobs, snakemake_exe

STUDY = ["config/study/systems.yaml", "config/study/winomt-2026.yaml"]
SERVICES = ["deepl", "google-translate", "microsoft-translator", "amazon-translate"]
LANGS = ["es", "fr", "it", "de"]
# each service's bill at the study's list prices (USD)
COSTS = [("deepl", "29.32"), ("google-translate", "23.45"), ("microsoft-translator", "11.73"),
         ("amazon-translate", "17.59")]
KEYS = ["DEEPL_AUTH_KEY", "GOOGLE_TRANSLATE_API_KEY", "AZURE_TRANSLATOR_KEY",
        "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"]
pytestmark = pytest.mark.skipif(not runnable("winomt-2026.yaml"),
                                reason="the public data in ../shared/data is not here")


def environment(tmp_path, keys: bool) -> dict[str, str]:
    """This environment without any credential of the four services (AWS's shared files
    pointed at nothing), with fake ones when ``keys``."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("AWS_", "DEEPL_", "GOOGLE_", "AZURE_"))}
    env["AWS_SHARED_CREDENTIALS_FILE"] = str(tmp_path / "no-aws-credentials")
    env["AWS_CONFIG_FILE"] = str(tmp_path / "no-aws-config")
    if keys:
        env.update({k: f"fake-{k.lower()}-0123456789" for k in KEYS})
    return env


def run(workdir, env, *args):
    return subprocess.run([snakemake_exe(), *args, "--configfile", *STUDY], cwd=workdir,
                          env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    # ../shared beside the copy: the public data, read with no network
    return with_user_data(copy_project(tmp_path_factory.mktemp("winomt-2026") / "project"))


def test_plans_offline_with_keys(project, tmp_path):
    proc = run(project, environment(tmp_path, keys=True), "-n")
    assert proc.returncode == 0, explain(proc)
    jobs = planned_jobs(proc.stdout + proc.stderr)
    translated = {(w["system"], w["prompt"]) for rule, w in jobs if rule == "translate"}
    # every service and every 2019 output in every language
    for system in [*SERVICES, "google", "bing", "aws", "systran"]:
        assert {(system, lang) for lang in LANGS} <= translated, system
    # one request per distinct sentence and language, one job per service
    sources = sorted(w["system"] for rule, w in jobs if rule == "translate_sources")
    assert sources == sorted(SERVICES)
    compare = [w for rule, w in jobs if rule == "winomt_compare"]
    assert len(compare) == 1
    text = proc.stdout + proc.stderr
    for lang in LANGS:
        assert f"results/winomt-2026/winomt/tables/compare_{lang}.csv" in text
        assert f"results/winomt-2026/winomt/figures/compare_{lang}.png" in text
    assert "fake-" not in text  # the keys are in no line it prints
    # on a fresh folder (no input built) each service's bill, estimated from en.txt
    for system, cost in COSTS:
        line = next(line for line in text.splitlines()
                    if line.startswith(f"gendermt: {system} ("))
        assert "about 1,172,680 characters (15,528 distinct texts; estimated from the data" \
            in line, line
        assert f" {cost} USD at " in line and "not counted yet" not in line, line


def test_stops_at_start_up_without_keys(project, tmp_path):
    # the services' French translations only: the run would start with their jobs
    proc = run(project, environment(tmp_path, keys=False), "--cores", "1",
               *[f"results/winomt-2026/winomt/translations/{s}/fr.jsonl" for s in SERVICES])
    text = proc.stdout + proc.stderr
    assert proc.returncode != 0, explain(proc)
    for variable in ["DEEPL_AUTH_KEY", "GOOGLE_TRANSLATE_API_KEY", "AZURE_TRANSLATOR_KEY",
                     "AWS_ACCESS_KEY_ID"]:
        assert variable in text, explain(proc)
    # before any job: nothing made, nothing sent
    assert not (project / "results" / "winomt-2026" / "winomt" / "inputs").exists()
    assert not (project / "results" / "winomt-2026" / "winomt" / "sources").exists()


def test_states_the_bill_before_sending(tmp_path):
    """With the inputs built (they cost nothing) a dry run states each service's bill: the
    3,882 distinct sentences × 4 languages, 1,172,680 characters (docs/benchmarks/winomt.md),
    at the study's list prices (before they are built: test_plans_offline_with_keys)."""
    project = with_user_data(copy_project(tmp_path / "project"))
    env = environment(tmp_path, keys=True)
    built = run(project, env, "--cores", "2", "--omit-from", "translate", "translate_sources")
    assert built.returncode == 0, explain(built)
    proc = run(project, env, "-n")
    assert proc.returncode == 0, explain(proc)
    text = proc.stdout + proc.stderr
    for system, cost in COSTS:
        line = next(line for line in text.splitlines()
                    if line.startswith(f"gendermt: {system} ("))
        assert "1,172,680 characters to send (15,528 distinct requests" in line, line
        assert f" {cost} USD at " in line, line
    assert "fake-" not in text
