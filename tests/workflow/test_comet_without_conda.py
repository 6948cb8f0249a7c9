"""The COMET rule without per-rule conda environments (issue 53).

Without ``--sdm conda`` Snakemake runs a rule's script with its own Python and appends the
script's folder to ``sys.path``; a script named comet.py was then what ``import comet`` found
where unbabel-comet is not installed, and the job died with ``NameError: name 'snakemake' is
not defined`` (now workflow/scripts/comet_scores.py; tests/unit/test_script_names.py guards
every script's name).

1. In the COMET environment (.venv-comet, `make comet-env`): Snakemake runs on that venv's
   Python, so the COMET job's script does too, as a user's one environment with COMET would;
   the job scores a FairTranslate run with a tiny random-weight COMET checkpoint built on the
   fly (tests/comet_support/tiny_comet.py). Snakemake itself is not installed in the COMET
   venv (it pins transformers<5 and numpy<2 for COMET alone): the launching Python finds it in
   this test session's environment, after the venv's own packages.
2. In this environment, which has no COMET: the job fails with our "COMET is not installed"
   message, not a NameError.

Skipped where .venv-comet is absent; with GENDERMT_REQUIRE_COMET=1 (.ci/run, after
`make comet-env`) it fails instead.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import sysconfig

import pandas as pd
import pytest
import yaml

from ..conftest import ROOT
from ..workflow_support import RUN_TIMEOUT, copy_project, explain, output_of, snakemake

COMET_PYTHON = ROOT / ".venv-comet" / "bin" / "python"
REQUIRED = os.environ.get("GENDERMT_REQUIRE_COMET") == "1"
FT = "results/default/fairtranslate"
SYSTEMS = ["oracle-male", "copy-source"]
# Snakemake's command line on the COMET venv's Python: this session's site-packages (where
# Snakemake is) after the venv's own, so that COMET's pinned numpy and transformers win
LAUNCH = ("import sys; sys.path.append({site!r}); sys.argv[0] = 'snakemake'; "
          "from snakemake.cli import main; main()")


def comet_env_python() -> str:
    """The COMET venv's Python, or a skip (a failure where it is required) saying why not."""
    reason = None
    if not COMET_PYTHON.exists():
        reason = ("the COMET environment .venv-comet is absent (create it with "
                  "`make comet-env`; .ci/run does)")
    else:
        version = subprocess.run([str(COMET_PYTHON), "-c", "import sys; print(sys.version_info"
                                  "[:2])"], capture_output=True, text=True, timeout=60).stdout
        if version.strip() != str(sys.version_info[:2]):
            reason = (f".venv-comet's Python is {version.strip()}, this session's "
                      f"{sys.version_info[:2]}: Snakemake cannot be shared between them")
    if reason and REQUIRED:
        pytest.fail(f"GENDERMT_REQUIRE_COMET=1 but {reason}")
    if reason:
        pytest.skip(reason)
    return str(COMET_PYTHON)


def in_comet_env(args: list[str], cwd, timeout=RUN_TIMEOUT) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "HF_HUB_OFFLINE": "1",
           "TRANSFORMERS_OFFLINE": "1"}
    return subprocess.run([comet_env_python(), *args], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=timeout)


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    """FairTranslate's oracle and copy baseline on one prompt, translated (in this session's
    environment), with COMET among the metrics on a tiny checkpoint."""
    tmp = tmp_path_factory.mktemp("comet-no-conda")
    checkpoint = tmp / "tiny-comet"
    build = ("import sys; from pathlib import Path; "
             f"sys.path.insert(0, {str(ROOT / 'tests' / 'comet_support')!r}); "
             "from tiny_comet import build_checkpoint; "
             f"build_checkpoint(Path({str(checkpoint)!r}))")
    proc = in_comet_env(["-c", build], cwd=tmp)
    assert proc.returncode == 0, explain(proc)
    workdir = copy_project(tmp / "project")
    config_file = workdir / "config" / "config.yaml"
    config = yaml.safe_load(config_file.read_text(encoding="utf-8"))
    ft = config["benchmarks"]["fairtranslate"]
    for key in ("system_prompts", "decoding"):  # they name the default's LLMs
        ft.pop(key, None)
    ft.update(systems=SYSTEMS, prompts=["baseline"], metrics=["bleu", "comet"])
    config["benchmarks"] = {"fairtranslate": ft}
    config["systems"] = {name: config["systems"][name] for name in SYSTEMS}
    config["scoring"]["comet"] = {"model": str(checkpoint), "batch_size": 8, "gpus": 0}
    config["cache"] = {"dir": str(tmp / "cache"), "enabled": True}
    config_file.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    proc = snakemake(workdir, "--cores", "2", f"{FT}/data.parquet",
                     *(f"{FT}/translations/{s}/baseline.jsonl" for s in SYSTEMS),
                     timeout=RUN_TIMEOUT)
    assert proc.returncode == 0, explain(proc)
    return workdir


def test_the_comet_rule_runs_without_conda_in_the_comet_environment(project):
    site = sysconfig.get_paths()["purelib"]  # this session's, where Snakemake is
    proc = in_comet_env(["-c", LAUNCH.format(site=site), "--cores", "1",
                         f"{FT}/scores/comet.parquet"], cwd=project)
    assert proc.returncode == 0, explain(proc)
    text = output_of(proc)
    assert "1 of 1 steps (100%) done" in text, text[-3000:]  # COMET only: the rest was done
    assert "Conda environments: ignored" in text  # no --sdm conda: the rule's env unused
    scores = pd.read_parquet(project / FT / "scores" / "comet.parquet")
    data = pd.read_parquet(project / FT / "data.parquet")
    assert sorted(scores["system"].unique()) == sorted(SYSTEMS)
    assert len(scores) == len(SYSTEMS) * len(data) and scores["score"].notna().all()
    # unbabel-comet, importable only in the COMET venv, scored them
    assert scores["signature"].str.contains("|unbabel-comet:2.2.7|", regex=False).all()


def test_without_comet_the_job_says_how_to_install_it_not_a_name_error(project):
    if importlib.util.find_spec("comet") is not None:
        pytest.skip("COMET is installed in this environment")
    proc = snakemake(project, "--cores", "1", "--forcerun", "comet",
                     f"{FT}/scores/comet.parquet", timeout=RUN_TIMEOUT)
    text = output_of(proc)
    assert proc.returncode != 0, text[-3000:]
    assert "NameError" not in text, text[-3000:]
    assert "COMET is not installed in this environment" in text, text[-3000:]
    assert "make comet-env" in text
