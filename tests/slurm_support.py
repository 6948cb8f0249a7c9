"""A single-node SLURM test cluster for tests/workflow/test_slurm.py (.ci/slurm-cluster does the
work).

The SLURM tests run where a local test cluster can be used: SLURM installed (`sbatch` on PATH),
the Snakemake SLURM plugin importable, and either our test cluster ("local") already answering
or root to start it. Elsewhere they skip, saying why; with GENDERMT_REQUIRE_SLURM=1 (set by
.ci/run) they fail instead, so that CI cannot pass without running them.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess

import pytest

from .conftest import ROOT

CLUSTER = ROOT / ".ci" / "slurm-cluster"
REQUIRED = os.environ.get("GENDERMT_REQUIRE_SLURM") == "1"


def _cluster_name() -> str | None:
    """The name of the cluster `scontrol` talks to, or None when none answers."""
    try:
        out = subprocess.run(["scontrol", "show", "config"], capture_output=True, text=True,
                             timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode != 0:
        return None
    for line in out.stdout.splitlines():
        key, _, value = line.partition("=")
        if key.strip() == "ClusterName":
            return value.strip()
    return None


def unavailable() -> str | None:
    """Why the SLURM tests cannot run here, or None when they can."""
    if shutil.which("sbatch") is None:
        return ("SLURM is not installed (no `sbatch` on PATH); `.ci/slurm-cluster install` "
                "(root) installs Debian's slurm-wlm and munge")
    if importlib.util.find_spec("snakemake_executor_plugin_slurm") is None:
        return "snakemake-executor-plugin-slurm is not installed (pip install -e '.[slurm]')"
    name = _cluster_name()
    if name is not None and name != "local":
        return (f"a real SLURM cluster ({name!r}) answers here; the tests only submit to the "
                "single-node test cluster of .ci/slurm-cluster")
    if name is None and os.geteuid() != 0:
        return "no SLURM cluster answers and starting the test cluster needs root"
    return None


def cluster(action: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(CLUSTER), action], capture_output=True, text=True, timeout=900)


@pytest.fixture(scope="session")
def slurm_cluster():
    """The local test cluster, started for this session when it is not running, and stopped
    afterwards (also when tests fail) if this session started it."""
    reason = unavailable()
    if reason is not None:
        if REQUIRED:
            pytest.fail(f"GENDERMT_REQUIRE_SLURM=1 but the SLURM tests cannot run: {reason}")
        pytest.skip(reason)
    started = False
    if cluster("status").returncode != 0:
        proc = cluster("start")
        if proc.returncode != 0:
            cluster("stop")
            pytest.fail(f"could not start the SLURM test cluster:\n{proc.stdout}{proc.stderr}")
        started = True
    try:
        yield
    finally:
        if started:
            cluster("stop")
