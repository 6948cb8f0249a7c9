"""Build each env file in a venv of its own, exactly as pinned, and import every rule's code in it.

``python tools/envs_check.py [ENV ...]`` (``make envs-check``; ENV: ``core``, ``plot.yaml``...,
default every file in envs/). Per env file: a fresh venv in ``.envs-check/<name>`` (Python 3.11, as
the files pin), ``pip install`` of its pip list and of its conda packages mapped to PyPI names
(:data:`gendermt.workflow.env_requirements.PYPI_OF_CONDA`; conda channels are not reachable here),
then, with only ``src/`` on the path as a job has it (common.smk), an import of every gendermt
module the env's rules reach (scripts, their closure, the modules loaded by name) and of every
third-party module those require (so a lazy import inside a function is tried too). pip's cache is
reused; nothing of the launching environment is on the path.

torch is only ever ``torch==2.13.0`` (the CPU wheel on this machine's disk): an env file that
asks for another torch is refused, and every install is constrained to it, so that no package
pulls a multi-GB CUDA build of torch in. Exit 0 when every env ran clean, 1 when one did not,
2 on a bad argument or env file.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from gendermt.workflow.env_requirements import (  # noqa: E402
    NOT_FROM_ENV,
    canonicalize_name,
    env_packages,
    imports_of_modules,
    loaded_by_name,
    requirement_name,
)
from gendermt.workflow.import_graph import imported_by, modules_run_by  # noqa: E402

TORCH = "torch==2.13.0"
PYTHON = os.environ.get("ENVS_CHECK_PYTHON", "python3.11")

# Runs in the env's venv: imports each name, prints the failures as JSON.
IMPORTER = """
import importlib, json, sys, traceback
failed = {}
for name in json.loads(sys.argv[1]):
    try:
        importlib.import_module(name)
    except Exception as exc:
        failed[name] = f"{type(exc).__name__}: {exc}"
print(json.dumps(failed))
"""


def rules_by_env() -> dict[str, list[dict]]:
    """env file name → the rules that name it (script, env), from the planned workflow."""
    from tests.dag_params import plan
    from tests.workflow_support import copy_project

    with tempfile.TemporaryDirectory() as tmp:
        project = copy_project(Path(tmp) / "project", share_cache=False)
        rules = plan(project, "config/config.yaml")["rules"]
        out: dict[str, list[dict]] = {}
        for rule in rules:
            if rule["script"] and rule["conda"]:
                rule["script"] = str(ROOT / Path(rule["script"]).relative_to(project))
                out.setdefault(Path(rule["conda"]).name, []).append(rule)
    return out


def to_import(rules: list[dict]) -> list[str]:
    """gendermt modules and required third-party modules the rules' jobs import."""
    modules: set[str] = set()
    code: list[str] = []
    for rule in rules:
        by_name = loaded_by_name(rule["rule"])
        code += [rule["script"], *by_name]
        for name in [*imported_by(rule["script"]), *by_name]:
            modules.update(modules_run_by(name))
    third = {top for top, importers in imports_of_modules(code).items()
             if any(importers.values()) and top not in NOT_FROM_ENV}
    return sorted(modules) + sorted(third)


def requirements(env_file: Path) -> list[str]:
    reqs = list(env_packages(env_file).values())
    torch = [r for r in reqs if canonicalize_name(requirement_name(r)) == "torch"]
    if any(r.replace(" ", "") != TORCH for r in torch):
        raise SystemExit(f"{env_file}: torch must be pinned as {TORCH} (the local CPU wheel), "
                         f"found {torch}")
    return reqs


def check(env_file: Path, rules: list[dict], venvs: Path, log) -> dict:
    start = time.monotonic()
    reqs = requirements(env_file)
    venv = venvs / env_file.stem
    shutil.rmtree(venv, ignore_errors=True)
    constraints = venvs / "torch-constraint.txt"
    constraints.write_text(TORCH + "\n", encoding="utf-8")

    def step(*cmd: str) -> subprocess.CompletedProcess:
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT,
                              env={**os.environ, "PYTHONPATH": str(ROOT / "src"),
                                   "PYTHONNOUSERSITE": "1", "MPLBACKEND": "Agg"})
        log.write(f"$ {' '.join(cmd)}\n{proc.stdout}{proc.stderr}\n")
        log.flush()
        return proc

    result = {"env": env_file.name, "rules": len(rules), "packages": len(reqs)}
    python = str(venv / "bin" / "python")
    proc = step(PYTHON, "-m", "venv", str(venv))
    if proc.returncode == 0:
        proc = step(python, "-m", "pip", "install", "--quiet", "-c", str(constraints), *reqs)
    built = time.monotonic()
    result["build_s"] = round(built - start, 1)
    if proc.returncode != 0:
        result["error"] = "install failed: " + (proc.stderr.strip().splitlines() or ["?"])[-1]
        return result
    names = to_import(rules)
    proc = step(python, "-s", "-c", IMPORTER, json.dumps(names))
    result["imports"] = len(names)
    result["import_s"] = round(time.monotonic() - built, 1)
    if proc.returncode != 0:
        result["error"] = "importer crashed: " + proc.stderr.strip()[-500:]
    else:
        failed = json.loads(proc.stdout.strip().splitlines()[-1])
        if failed:
            result["error"] = "; ".join(f"{k}: {v}" for k, v in failed.items())
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("envs", nargs="*", help="env files (name or stem), default all")
    parser.add_argument("--venvs", type=Path, default=ROOT / ".envs-check",
                        help="where the venvs are built (default .envs-check/)")
    parser.add_argument("--keep", action="store_true", help="keep the venvs afterwards")
    args = parser.parse_args(argv)
    files = sorted((ROOT / "envs").glob("*.yaml"))
    if args.envs:
        wanted = {Path(e).stem for e in args.envs}
        unknown = wanted - {f.stem for f in files}
        if unknown:
            print(f"envs_check: no env file {sorted(unknown)} in envs/", file=sys.stderr)
            return 2
        files = [f for f in files if f.stem in wanted]
    by_env = rules_by_env()
    args.venvs.mkdir(parents=True, exist_ok=True)
    failed = False
    with open(args.venvs / "envs_check.log", "w", encoding="utf-8") as log:
        for env_file in files:
            rules = by_env.get(env_file.name, [])
            if not rules and env_file.name != "workflow.yaml":
                print(f"{env_file.name}: no rule names it")
            # workflow.yaml launches Snakemake (no rule runs in it): built, snakemake imported
            if env_file.name == "workflow.yaml":
                rules = []
            result = check(env_file, rules, args.venvs, log)
            if env_file.name == "workflow.yaml" and "error" not in result:
                proc = subprocess.run([str(args.venvs / "workflow" / "bin" / "snakemake"),
                                       "--version"], capture_output=True, text=True)
                if proc.returncode != 0:
                    result["error"] = "snakemake --version failed: " + proc.stderr[-300:]
            status = "FAILED " + result["error"] if "error" in result else "clean"
            print(f"{result['env']}: {status} ({result['packages']} packages, "
                  f"{result['rules']} rules, {result.get('imports', 0)} imports; "
                  f"build {result['build_s']} s, imports {result.get('import_s', 0)} s)",
                  flush=True)
            failed |= "error" in result
            if not args.keep:
                shutil.rmtree(args.venvs / env_file.stem, ignore_errors=True)
    print(f"log: {args.venvs / 'envs_check.log'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
