"""The workflow as Snakemake plans it for a config, as JSON: every planned job (rule,
wildcards, evaluated ``params`` and ``resources``, its rule's script and, per param that is a
code fingerprint, the modules it covers) and every rule, planned or not (script, conda env
file, code, resource names, benchmark file, whether a cluster run submits it).

Run as a script in its own process (Snakemake's API keeps global state):
``python tests/dag_params.py WORKDIR CONFIGFILE...``; :func:`plan` does that, with the
environment it is given (placement variables are read while planning). A dry run prints no
params, and "the jobs' params" is what reruns a job when a setting changes.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def plan(workdir: Path, *configfiles: str, env: dict[str, str] | None = None,
         timeout: float | None = None) -> dict:
    """``{"jobs": [...], "rules": [...]}`` (see the module's docstring)."""
    proc = subprocess.run([sys.executable, __file__, str(workdir), *configfiles],
                          capture_output=True, text=True, timeout=timeout, cwd=workdir, env=env)
    if proc.returncode != 0:
        raise AssertionError(f"planning failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def job_params(workdir: Path, *configfiles: str, timeout: float | None = None
               ) -> list[dict]:
    """Every planned job's rule, wildcards and params."""
    return [{k: job[k] for k in ("rule", "wildcards", "params")}
            for job in plan(workdir, *configfiles, timeout=timeout)["jobs"]]


def _script(rule) -> str | None:
    if not rule.script:
        return None
    return str((Path(rule.snakefile).parent / str(rule.script)).resolve())


def _code(params, named: dict, declared: dict) -> dict:
    """The params named ``code`` or ``*_code``: the modules each fingerprint covers, or, for
    a declared one (a translation job's), ``{"declared": [what it declares]}``."""
    def modules(value):
        if isinstance(value, str) and value in named:
            return list(named[value])
        if isinstance(value, str) and value in declared:
            return {"declared": list(declared[value])}
        return "per job" if callable(value) else f"not a fingerprint: {value!r}"
    return {k: modules(v) for k, v in params.items() if k == "code" or k.endswith("_code")}


def _conda(rule) -> str | None:
    """The rule's ``conda:`` env file, resolved against its rule file."""
    env = rule.conda_env
    if env is None:
        return None
    env = getattr(env, "file", env)  # a path is kept as snakemake's IOFile-like wrapper
    return str((Path(rule.snakefile).parent / str(env)).resolve())


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
        # the stage versions module the workflow's common.smk imported (the checkout's)
        from gendermt.workflow.stage_versions import DECLARED, NAMED

        jobs = []
        for job in workflow.dag.jobs:
            params = dict(job.params.items())
            jobs.append({"rule": job.rule.name, "wildcards": dict(job.wildcards_dict),
                         "params": params, "script": _script(job.rule),
                         "code": _code(params, NAMED, DECLARED),
                         "resources": {k: v for k, v in job.resources.items()
                                       if not k.startswith("_")}})
        rules = [{"rule": rule.name, "script": _script(rule), "conda": _conda(rule),
                  "code": _code(dict(rule.params.items()), NAMED, DECLARED),
                  "resources": sorted(k for k, _ in rule.resources.items()
                                      if not k.startswith("_")),
                  "benchmark": None if rule.benchmark is None else str(rule.benchmark),
                  # submitted to a node on a cluster (localrules and `all` are not)
                  "submitted": not (rule.name in workflow._localrules or rule.norun)}
                 for rule in workflow.rules]
    print(json.dumps({"jobs": jobs, "rules": rules}, default=str))


if __name__ == "__main__":
    main(*sys.argv[1:])
