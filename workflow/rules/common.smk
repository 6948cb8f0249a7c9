# Config validation and the helper functions the rules use (no logic beyond lookups).
import os
import sys
from pathlib import Path

from snakemake.exceptions import WorkflowError
from snakemake.utils import validate

# gendermt is imported from this checkout, so that the package, the workflow that calls it
# and the code fingerprints below are always the same version: first on this process's path,
# and first on the jobs' (Snakemake only appends its own path to a job's sys.path, after
# site-packages, where another installed gendermt would win; in a conda env there is none).
SRC = str(Path(workflow.basedir) / "src")
sys.path.insert(0, SRC)
os.environ.update(PYTHONPATH=os.pathsep.join(filter(None, [SRC, os.environ.get("PYTHONPATH")])))

from gendermt.backends import check_system, system_gpus
from gendermt.errors import GenderMTError
from gendermt.prompts import load_templates
from gendermt.provenance import code_fingerprint


validate(config, schema="../schemas/config.schema.yaml")


wildcard_constraints:
    benchmark="[A-Za-z0-9_-]+",
    system="[A-Za-z0-9][A-Za-z0-9_.+-]*",
    prompt="[A-Za-z0-9][A-Za-z0-9_-]*",


BENCHMARKS = config["benchmarks"]
SYSTEMS = config["systems"]
TEMPLATES = {name: load_templates(spec["templates"]) for name, spec in BENCHMARKS.items()}

for _name, _settings in SYSTEMS.items():
    try:
        check_system(_settings)
    except GenderMTError as _exc:
        raise WorkflowError(f"systems.{_name}: {_exc}")

for _name, _spec in BENCHMARKS.items():
    _unknown = [s for s in _spec["systems"] if s not in SYSTEMS]
    if _unknown:
        raise WorkflowError(
            f"benchmarks.{_name}.systems names {_unknown}, which are not defined under "
            f"`systems:` (defined: {', '.join(SYSTEMS)})"
        )
    _unknown = [p for p in _spec["prompts"] if p not in TEMPLATES[_name]]
    if _unknown:
        raise WorkflowError(
            f"benchmarks.{_name}.prompts names {_unknown}, which {_spec['templates']} does "
            f"not define (it has: {', '.join(TEMPLATES[_name])})"
        )


# --- lookups by wildcards -------------------------------------------------------------
def template_of(wildcards):
    return TEMPLATES[wildcards.benchmark][wildcards.prompt]


def system_settings(wildcards):
    return SYSTEMS[wildcards.system]


def translation_gpus(wildcards):
    return system_gpus(SYSTEMS[wildcards.system])


def postprocess_of(wildcards):
    return BENCHMARKS[wildcards.benchmark].get("postprocess", [])


def sacrebleu_metrics_of(wildcards):
    return [m for m in BENCHMARKS[wildcards.benchmark].get("metrics", []) if m != "comet"]


def metric_options(wildcards):
    scoring = config.get("scoring", {})
    return {m: scoring.get(m) or {} for m in sacrebleu_metrics_of(wildcards)}


def corpus_groups_of(wildcards):
    return BENCHMARKS[wildcards.benchmark].get("corpus_groups", [])


def comet_settings():
    return config.get("scoring", {}).get("comet", {})


def comet_gpus(wildcards):
    return int(comet_settings().get("gpus", 1))


# --- placement on a SLURM cluster (profiles/slurm) -----------------------------------------
# The user's own settings, from the environment of the launching Snakemake (README, "On a SLURM
# cluster"); "" means the cluster's default. Only jobs that use GPUs go to the GPU partition and
# name a GPU model (the plugin would otherwise ask for `--gpus=<model>:0`). Placement never
# changes a result, so it is a resource, not a param.
def slurm_partition(gpus):
    env = os.environ
    if gpus > 0:
        return env.get("GENDERMT_SLURM_GPU_PARTITION") or env.get("GENDERMT_SLURM_PARTITION", "")
    return env.get("GENDERMT_SLURM_PARTITION", "")


def slurm_gpu_model(gpus):
    return os.environ.get("GENDERMT_SLURM_GPU_MODEL", "") if gpus > 0 else ""


def translation_partition(wildcards):
    return slurm_partition(translation_gpus(wildcards))


def translation_gpu_model(wildcards):
    return slurm_gpu_model(translation_gpus(wildcards))


def comet_partition(wildcards):
    return slurm_partition(comet_gpus(wildcards))


def comet_gpu_model(wildcards):
    return slurm_gpu_model(comet_gpus(wildcards))


# --- targets --------------------------------------------------------------------------
def score_files(benchmark):
    """Every score file of a benchmark: sacrebleu metrics, and COMET when it is asked for."""
    spec = BENCHMARKS[benchmark]
    files = expand(
        "results/{benchmark}/scores/{system}/{prompt}.parquet",
        benchmark=benchmark,
        system=spec["systems"],
        prompt=spec["prompts"],
    )
    if "comet" in spec.get("metrics", []):
        files += expand(
            "results/{benchmark}/scores/{system}/{prompt}.comet.parquet",
            benchmark=benchmark,
            system=spec["systems"],
            prompt=spec["prompts"],
        )
    return files


# Each benchmark's rule file adds the tables and figures it makes.
TARGETS: list[str] = []


def all_targets():
    return TARGETS
