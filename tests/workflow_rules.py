"""Every rule of the workflow (the names of its resources, its benchmark file, whether a
cluster run submits it) and every planned job's evaluated resources and params, for a config,
as JSON.

Run as a script in its own process (Snakemake's API keeps global state):
``python tests/workflow_rules.py WORKDIR CONFIGFILE...``; :func:`rules_and_jobs` does that,
with the environment it is given (the placement variables are read while planning).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def rules_and_jobs(workdir: Path, *configfiles: str, env: dict[str, str] | None = None,
                   timeout: int = 300) -> dict:
    proc = subprocess.run([sys.executable, __file__, str(workdir), *configfiles],
                          capture_output=True, text=True, timeout=timeout, cwd=workdir, env=env)
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
        workflow = workflow_api.dag(DAGSettings()).workflow_api._workflow
        workflow._prepare_dag(forceall=False, ignore_incomplete=True, lock_warn_only=True)
        workflow._build_dag()
        rules = [{"rule": rule.name,
                  "resources": sorted(k for k, _ in rule.resources.items()
                                      if not k.startswith("_")),
                  "benchmark": None if rule.benchmark is None else str(rule.benchmark),
                  # submitted to a node on a cluster (localrules and `all` are not)
                  "submitted": not (rule.name in workflow._localrules or rule.norun)}
                 for rule in workflow.rules]
        jobs = [{"rule": job.rule.name, "wildcards": dict(job.wildcards_dict),
                 "resources": {k: v for k, v in job.resources.items() if not k.startswith("_")},
                 "params": dict(job.params.items())}
                for job in workflow.dag.jobs]
    print(json.dumps({"rules": rules, "jobs": jobs}, default=str))


if __name__ == "__main__":
    main(*sys.argv[1:])
