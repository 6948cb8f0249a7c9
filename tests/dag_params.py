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


def workflow_code(workdir: Path, *configfiles: str, timeout: int = 300) -> dict:
    """The planned jobs (as :func:`job_params`, each with its rule's ``script`` and, per
    param that is a code fingerprint, the modules it was computed over: ``code``) and every
    rule of the workflow, planned or not (``rules``: name, script, code; a fingerprint
    computed per job from wildcards shows as ``"per job"``)."""
    proc = subprocess.run([sys.executable, __file__, "--code", str(workdir), *configfiles],
                          capture_output=True, text=True, timeout=timeout, cwd=workdir)
    if proc.returncode != 0:
        raise AssertionError(f"planning failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _script(rule) -> str | None:
    if not rule.script:
        return None
    return str((Path(rule.snakefile).parent / str(rule.script)).resolve())


def _code(params, named: dict) -> dict:
    """The params named ``code`` or ``*_code``: the modules each fingerprint covers."""
    def modules(value):
        if isinstance(value, str) and value in named:
            return list(named[value])
        return "per job" if callable(value) else f"not a fingerprint: {value!r}"
    return {k: modules(v) for k, v in params.items() if k == "code" or k.endswith("_code")}


def main(workdir: str, *configfiles: str) -> None:
    code = workdir == "--code"
    if code:
        workdir, *configfiles = configfiles
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
        if code:
            # the provenance module the workflow's common.smk imported (the checkout's)
            from gendermt.provenance import NAMED

            for job, planned in zip(workflow.dag.jobs, jobs, strict=True):
                planned["script"] = _script(job.rule)
                planned["code"] = _code(planned["params"], NAMED)
            rules = [{"rule": rule.name, "script": _script(rule),
                      "code": _code(dict(rule.params.items()), NAMED)}
                     for rule in workflow.rules]
            print(json.dumps({"jobs": jobs, "rules": rules}, default=str))
            return
    print(json.dumps(jobs, default=str))


if __name__ == "__main__":
    main(*sys.argv[1:])
