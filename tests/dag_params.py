"""Every planned job's rule, wildcards and evaluated ``params`` for a config, as JSON.

Run as a script in its own process (Snakemake's API keeps global state):
``python tests/dag_params.py WORKDIR CONFIGFILE...``; :func:`job_params` does that. A dry run
prints no params, and "the jobs' params" is what reruns a job when a setting changes.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def job_params(workdir: Path, *configfiles: str, timeout: int = 300) -> list[dict]:
    proc = subprocess.run([sys.executable, __file__, str(workdir), *configfiles],
                          capture_output=True, text=True, timeout=timeout, cwd=workdir)
    if proc.returncode != 0:
        raise AssertionError(f"planning failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main(workdir: str, *configfiles: str) -> None:
    from snakemake.api import SnakemakeApi
    from snakemake.settings.types import (
        ConfigSettings,
        DAGSettings,
        OutputSettings,
        ResourceSettings,
    )

    root = Path(workdir).resolve()
    with SnakemakeApi(OutputSettings()) as api:
        workflow_api = api.workflow(
            resource_settings=ResourceSettings(cores=1),
            config_settings=ConfigSettings(configfiles=[root / c for c in configfiles]),
            snakefile=root / "Snakefile", workdir=root)
        dag_api = workflow_api.dag(DAGSettings())
        workflow = dag_api.workflow_api._workflow
        workflow._prepare_dag(forceall=False, ignore_incomplete=True, lock_warn_only=True)
        workflow._build_dag()
        jobs = [{"rule": job.rule.name, "wildcards": dict(job.wildcards_dict),
                 "params": {k: v for k, v in job.params.items()}}
                for job in workflow.dag.jobs]
    print(json.dumps(jobs, default=str))


if __name__ == "__main__":
    main(*sys.argv[1:])
