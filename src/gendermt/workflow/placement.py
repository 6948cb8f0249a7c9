"""Where a job runs: the GPUs it asks for and, on a SLURM cluster, its partition and GPU model.

Every rule that can use a GPU takes its resources from :func:`gpu_resources` (in the rule:
``resources: **gpu_resources(<gpus>)``), so that the GPU count, the GPU model and the partition
always agree. The user's cluster settings come from the environment of the launching
Snakemake (README, "On a SLURM cluster"; unset or empty means the cluster's default):

* ``GENDERMT_SLURM_PARTITION``: jobs that use no GPU (offline systems, APIs);
* ``GENDERMT_SLURM_GPU_PARTITION``: jobs that use GPUs (else the one above);
* ``GENDERMT_SLURM_GPU_MODEL``: jobs that use GPUs ask for ``--gpus=<model>:N``.

A job that uses no GPU names no GPU model (the SLURM plugin would otherwise ask for
``--gpus=<model>:0``). Placement never changes a result: these are resources, never params,
so changing them reruns nothing.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any

# a rule's GPUs: a number, or a function of the job's wildcards (a system's `gpus`)
Gpus = int | Callable[[Any], int]

PARTITION = "GENDERMT_SLURM_PARTITION"
GPU_PARTITION = "GENDERMT_SLURM_GPU_PARTITION"
GPU_MODEL = "GENDERMT_SLURM_GPU_MODEL"


def slurm_partition(gpus: int, env: Mapping[str, str] | None = None) -> str:
    """The partition of a job that uses `gpus` GPUs ("" = the cluster's default)."""
    env = os.environ if env is None else env
    if gpus > 0:
        return env.get(GPU_PARTITION) or env.get(PARTITION, "")
    return env.get(PARTITION, "")


def slurm_gpu_model(gpus: int, env: Mapping[str, str] | None = None) -> str:
    """The GPU model a job that uses `gpus` GPUs asks for ("" = any, and always for none)."""
    env = os.environ if env is None else env
    return env.get(GPU_MODEL, "") if gpus > 0 else ""


def gpu_resources(gpus: Gpus) -> dict[str, Any]:
    """``gpu``, ``gpu_model`` and ``slurm_partition`` of a rule whose jobs use `gpus` GPUs.

    `gpus` is a number or a function of the wildcards; for a function, the three are
    functions of the wildcards too (Snakemake calls them per job, reading the environment
    then). A negative or non-integer count is refused at once.
    """
    if callable(gpus):
        def count(wildcards) -> int:
            return _checked(gpus(wildcards))

        def gpu_model(wildcards) -> str:
            return slurm_gpu_model(count(wildcards))

        def partition(wildcards) -> str:
            return slurm_partition(count(wildcards))

        return {"gpu": count, "gpu_model": gpu_model, "slurm_partition": partition}
    n = _checked(gpus)
    return {"gpu": n, "gpu_model": slurm_gpu_model(n), "slurm_partition": slurm_partition(n)}


def _checked(gpus: Any) -> int:
    if isinstance(gpus, bool) or not isinstance(gpus, int) or gpus < 0:
        raise ValueError(f"a job's GPUs must be a whole number >= 0, not {gpus!r}")
    return gpus
