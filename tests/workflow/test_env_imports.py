"""Every rule's env file provides the third-party packages its code imports (issue 29).

For each rule of the parsed workflow: its script, every gendermt module the script reaches
(the closure :func:`gendermt.workflow.import_graph.modules_run_by` follows), and the
modules
its jobs load by name (backends, the scorecard's readers), read for imports at module level
and inside functions; the rule's ``conda:`` file must pin each required one. The rule for
optional imports (``try: import x`` / ``except ImportError`` with a fallback) is in
:mod:`gendermt.workflow.env_requirements`. ``tools/envs_check.py`` (``make envs-check``) builds the
env files and imports for real.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gendermt.workflow.env_requirements import (
    env_packages,
    imports_of_file,
    loaded_by_name,
    missing_packages,
)

from ..conftest import ROOT
from ..dag_params import plan
from ..workflow_support import copy_project


@pytest.fixture(scope="module")
def rules(tmp_path_factory, study_plans) -> list[dict]:
    project = copy_project(tmp_path_factory.mktemp("envs") / "project", share_cache=False)
    planned = [(project, plan(project, "config/config.yaml"))]
    # the rules of the benchmarks the default does not configure (their rule files are
    # included only for a config that does): a study config's plan
    planned += [(study_plans[0], p) for p in study_plans[1].values()]
    found: dict[str, dict] = {}
    for root, plan_of in planned:
        for rule in plan_of["rules"]:
            if not rule["script"] or rule["rule"] in found:
                continue
            # the checkout's env files and scripts, not the copy's (only for planning)
            for key in ("script", "conda"):
                rule[key] = str(ROOT / Path(rule[key]).relative_to(root))
            found[rule["rule"]] = rule
    return list(found.values())


def env_faults(rules: list[dict], envs: Path = ROOT / "envs") -> list[str]:
    out = []
    for rule in rules:
        env_file = envs / Path(rule["conda"]).name
        out += missing_packages(rule["rule"], [rule["script"], *loaded_by_name(rule["rule"])],
                                env_file)
    return out


def test_every_rule_env_provides_what_its_code_imports(rules):
    assert len(rules) > 50 and all(r["conda"] for r in rules)
    faults = env_faults(rules)
    assert not faults, "\n".join(faults)


def test_the_two_gaps_issue_29_found_are_caught(rules, tmp_path):
    # the env files as they were: plot.yaml without sacrebleu, core.yaml without huggingface_hub
    envs = tmp_path / "envs"
    shutil.copytree(ROOT / "envs", envs)
    for name, package in (("plot.yaml", "sacrebleu"), ("core.yaml", "huggingface_hub")):
        lines = (envs / name).read_text(encoding="utf-8").splitlines(keepends=True)
        (envs / name).write_text("".join(x for x in lines if f"- {package}==" not in x),
                                 encoding="utf-8")
    faults = env_faults(rules, envs)
    # the modules that reach sacrebleu are named (the figure's intervals reach the
    # resampling module too), then the fix
    assert any(f.startswith("rule gate_x_e_figures: ") and "gendermt.scoring.sacrebleu_metrics"
               in f and f.endswith(
                   " imports 'sacrebleu', which plot.yaml does not provide: add "
                   "sacrebleu==<version> to its pip list (and to pyproject.toml); if 'sacrebleu' "
                   "is not that package's import name, map it in "
                   "gendermt.workflow.env_requirements.DISTRIBUTION_OF") for f in faults), faults
    assert any(f.startswith("rule fairtranslate_data: gendermt.benchmarks.fairtranslate.data "
                            "imports 'huggingface_hub', which core.yaml does not provide: "
                            "add huggingface-hub==") for f in faults)
    # nothing else: every other rule in these two envs still has what it needs
    assert {f.split(":")[0] for f in faults} <= {
        "rule gate_x_e_figures", "rule fairtranslate_data"} | {
        f"rule {r['rule']}" for r in rules if Path(r["conda"]).name in ("plot.yaml", "core.yaml")}


def test_a_backend_rule_needs_the_backends_stack(rules, tmp_path):
    envs = tmp_path / "envs"
    shutil.copytree(ROOT / "envs", envs)
    text = (envs / "translate.yaml").read_text(encoding="utf-8")
    (envs / "translate.yaml").write_text(text.replace("- torch==", "- not-torch=="),
                                         encoding="utf-8")
    faults = env_faults(rules, envs)
    assert any(f.startswith("rule translate: gendermt.translation.backends.gguf, "
                            "gendermt.translation.backends.hf "
                            "imports 'torch', which translate.yaml") for f in faults)


def test_which_imports_are_required(tmp_path):
    script = tmp_path / "script.py"
    script.write_text(
        "from __future__ import annotations\n"
        "import os, json\n"
        "import yaml\n"
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    import pandas\n"
        "def lazy():\n"
        "    import sklearn.linear_model\n"
        "def fallback():\n"
        "    try:\n"
        "        import torch\n"
        "    except ImportError:\n"
        "        return 0\n"
        "def worded():\n"
        "    try:\n"
        "        from sacrebleu import BLEU\n"
        "    except ImportError as exc:\n"
        "        raise RuntimeError('pip install sacrebleu') from exc\n"
        "from gendermt import io\n", encoding="utf-8")
    assert imports_of_file(script) == {"yaml": True, "sklearn": True, "torch": False,
                                       "sacrebleu": True}


def test_env_packages_reads_pip_and_conda_names(tmp_path):
    env = tmp_path / "e.yaml"
    env.write_text("dependencies:\n  - python=3.11\n  - pip\n  - pytorch=2.13.0\n  - numpy>=2\n"
                   "  - pip:\n      - PyYAML==6.0.4\n      - huggingface_hub==2.4.0\n",
                   encoding="utf-8")
    assert env_packages(env) == {"torch": "torch==2.13.0", "numpy": "numpy>=2",
                                 "pyyaml": "PyYAML==6.0.4",
                                 "huggingface-hub": "huggingface_hub==2.4.0"}
