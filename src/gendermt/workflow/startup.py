"""The workflow's checks before anything is planned or run, and the params of data stages
(``workflow/rules/common.smk`` calls these).

Each check turns a GenderMTError into Snakemake's WorkflowError with the same message, so
that a bad config, a missing data file or a damaged cache stops the run at start-up, naming
what is wrong, instead of failing in a job.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from snakemake.exceptions import WorkflowError

from gendermt.config import add_systems
from gendermt.config.checks import check_config, check_schema
from gendermt.config.files import DEFAULT_CONFIG, check_config_files, read_config
from gendermt.config.systems import settings_on
from gendermt.core import registry
from gendermt.core.errors import GenderMTError
from gendermt.data.datasets import read_by as datasets_read_by
from gendermt.data.datasets import resolve_config as resolve_datasets
from gendermt.data.sources import Hasher, check_sources, identity
from gendermt.translation.backends import BACKENDS, unset_api_keys
from gendermt.translation.cache import check_file as check_cache_file
from gendermt.translation.cache import configured_dir
from gendermt.workflow.dag_guard import check_planned_inputs
from gendermt.workflow.made_with import changed_settings, recorded_params
from gendermt.workflow.protection import protected_reruns, rerun_allowed, stop_message
from gendermt.workflow.snakemake_overrides import one_pending_reevaluation


def check_config_and_schema(config: dict, configfiles: list, basedir: str, memo: Any) -> None:
    """Checks the config files named and the config against the schema, filling its defaults."""
    # Config files named on the command line without the default must name their run: the
    # default's benchmarks are never dropped silently (checked before the schema fills `run`).
    try:
        # Snakemake loaded them already, keeping the last of a key given twice: each is read
        # again strictly (gendermt.config.files), the default too when none is named
        for path in configfiles or [str(Path(basedir) / DEFAULT_CONFIG)]:
            read_config(path)
        check_config_files(configfiles, config, basedir)
    except GenderMTError as exc:
        raise WorkflowError(str(exc)) from exc
    # The schema (the base schema with every benchmark's fragment, gendermt.benchmarks.
    # registry), checked once, with a message naming the key, filling in the schema's
    # defaults as snakemake.utils.validate would.
    schema = registry.config_schema(Path(basedir) / "workflow/schemas/config.schema.yaml")
    try:
        check_schema(config, schema, fill_defaults=True, memo=memo)
        # `add_systems:` appended to every benchmark's list, before anything reads one
        add_systems.apply(config)
    except GenderMTError as exc:
        raise WorkflowError(f"config: {exc}") from exc


def checked_data(config: dict, hasher: Hasher, main_process: bool) -> list[dict]:
    """The config's public data sets, fetched and verified; its data files and cache checked."""
    # Public data sets named by `dataset:<name>/<file>`: fetched into the data cache (or taken
    # from a local copy) and every file's hash checked against its manifest, then the
    # references replaced by their cached paths; a mismatch stops here, before anything runs.
    # Hashes no manifest gives are taken on first use into results/<run>/datasets.lock.json
    # (and the data cache's lock), and checked against it later (gendermt.data.locks).
    try:
        datasets = resolve_datasets(config, hasher, run_dir=Path("results") / config["run"])
    except GenderMTError as exc:
        raise WorkflowError(str(exc)) from exc
    if main_process:
        for d in datasets:
            taken = d["obtained"].get("first_use")
            trusted = ((f"; {taken} hashes taken now, at its first use ({d['hashes']}), into "
                        if taken else f"; checked against the hashes of its first use "
                        f"({d['hashes']}) in ") + d["lock"] if d.get("hashes") else "")
            print(f"gendermt: data set {d['dataset']} ({d['source']}@{d['commit'][:12]}): "
                  f"{len(d['files'])} files verified in {d['folder']} (already there "
                  f"{d['obtained']['cached']}, from a local copy {d['obtained']['local']}, "
                  f"downloaded {d['obtained']['downloaded']}){trusted}", file=sys.stderr)
    # Every configured data file or folder must exist before anything is planned; a damaged
    # request cache stops here, not in a job (or in every later run, paying again).
    try:
        check_cache_file(configured_dir(config))
        check_sources(config)
    except GenderMTError as exc:
        raise WorkflowError(str(exc)) from exc
    return datasets


def checked_templates(config: dict) -> dict:
    """The checked templates of every benchmark's prompts, by benchmark and prompt."""
    # Every value the schema cannot check (settings, templates, each benchmark's systems,
    # prompts and decoding overrides, sacrebleu options, each benchmark's own checks), checked
    # before any job runs (gendermt.config.checks).
    try:
        return check_config(config)
    except GenderMTError as exc:
        raise WorkflowError(f"config: {exc}") from exc


class DataStages:
    """The params of data stages: what their sources hold, not when they were written."""

    def __init__(self, hasher: Hasher, datasets: list[dict]) -> None:
        self.hasher = hasher
        self.datasets = datasets

    def data_source_identity(self, paths: Iterable[str]) -> Any:
        """params of a data stage: path, size and sha256 of each file it reads (a changed
        source reruns the stage and everything downstream, whatever its mtime)."""
        found = identity(list(paths), self.hasher)
        self.hasher.save()
        return found

    def datasets_of(self, paths: Iterable[str]) -> Any:
        """params of a data stage: the declared public data sets its files come from (source,
        commit, licence, each file's sha256), which it records in its data.json; [] for
        none."""
        return datasets_read_by(list(paths), self.datasets)


def missing_packages(systems: dict[str, dict], names: Any) -> list[str]:
    """One line per backend of the systems ``names`` whose client packages are not installed
    in the running environment (an MT service's ``missing_packages``), naming the systems.
    Here, not in the backends' package: the stages that import it keep their fingerprints."""
    users: dict[str, list[str]] = {}
    for name in sorted(set(names)):
        users.setdefault((systems.get(name) or {}).get("backend", ""), []).append(name)
    lines = []
    for backend, using in users.items():
        cls = BACKENDS.get(backend)
        if hasattr(cls, "missing_packages"):  # the MT services: their vendors' clients
            lines += [f"systems.{', '.join(using)}: {line}" for line in cls.missing_packages()]
    return lines


def uses_conda(workflow: Any) -> bool:
    """Whether jobs run in their rules' conda environments (``--use-conda``)."""
    from snakemake.settings.types import DeploymentMethod

    return DeploymentMethod.CONDA in workflow.deployment_settings.deployment_method


def before_jobs(workflow: Any, config: dict, results: str, systems: dict) -> None:
    """The onstart checks of the planned jobs; the scheduler's one re-evaluation timer."""
    # Snakemake's scheduler keeps one re-evaluation timer pending, not one per finished job
    # (gendermt.workflow.snakemake_overrides: a seventh of the default's CPU).
    one_pending_reevaluation(workflow.scheduler)
    # No job reads a results/<run>/ file that no planned job makes (an old run's output taken
    # as a source file; gendermt.workflow.dag_guard).
    try:
        check_planned_inputs(workflow.dag, results)
    except GenderMTError as exc:
        raise WorkflowError(str(exc)) from exc
    # Protected outputs stop the run for every user, root too (Snakemake's own check is the
    # file's writability, which root always has): gendermt.workflow.protection.
    jobs = list(workflow.dag.needrun_jobs())
    if not workflow.touch and not rerun_allowed(config):
        locked = protected_reruns(jobs)
        if locked:
            stopped = [j for j in jobs if set(map(str, j.output)) & set(locked)]
            raise WorkflowError(stop_message(
                locked, changed_settings(stopped, recorded_params(workflow))))
    # A system about to translate whose API key is not in the environment stops here too.
    translating = [j for j in jobs if j.rule.name in ("translate", "translate_sources")]
    names = [j.wildcards_dict["system"] for j in translating]
    unset = unset_api_keys(systems, names)
    if not uses_conda(workflow):  # a rule's conda env has them, not the running one
        unset += missing_packages(systems, names)
    if unset:
        raise WorkflowError("\n".join(unset))
    paid_work(config, translating)


def _mt_service(config: dict) -> Any:
    """The MT-service module where a configured system is an MT service (their backends'
    modules import it), else None: a config without one imports nothing more."""
    from gendermt.translation.backends import BACKENDS

    for settings in config["systems"].values():
        BACKENDS.get(settings.get("backend", ""))  # imported already by the config checks
    return sys.modules.get("gendermt.translation.backends.mt_service")


def _statement(mt_service: Any, config: dict, planned: list) -> tuple[list[str], list[str]]:
    try:
        return mt_service.startup_statement(config["systems"], planned, configured_dir(config))
    except GenderMTError as exc:  # a language the service has no code for
        raise WorkflowError(str(exc)) from exc


def paid_work(config: dict, jobs: list[Any]) -> None:
    """A ``max_characters`` of a commercial MT service system that its planned jobs would
    exceed (counted from their built inputs, less what the request cache answers, each
    distinct request once; no network) stops the run here, before any job runs."""
    mt_service = _mt_service(config)
    if mt_service is None:
        return
    planned = []
    for j in jobs:
        system, benchmark = j.wildcards_dict["system"], j.wildcards_dict["benchmark"]
        inputs = j.input.get("inputs") if hasattr(j.input, "get") else None
        for path in ([inputs] if isinstance(inputs, str) else list(inputs or [])):
            planned.append((system, str(path), settings_on(config, benchmark, system)))
    _, errors = _statement(mt_service, config, planned)
    if errors:
        raise WorkflowError("\n".join(errors))


def state_paid_work(config: dict, results: str, run_records: Any, main_process: bool) -> None:
    """Before anything is planned (``snakemake -n`` too): per commercial MT service system,
    the characters its configured runs would send and their cost, counted from the runs'
    built inputs (``results/<run>/<benchmark>/inputs/<prompt>.jsonl``) less what the
    request cache answers, printed; where inputs are not built yet, estimated from the
    data files (the contract's ``source_texts``), else named as not counted. No
    network, no key. (The ``paid_work`` job counts exactly and stops over
    ``max_characters`` before the first request; :func:`paid_work` at onstart too.)"""
    mt_service = _mt_service(config) if main_process else None
    if mt_service is None:
        return
    planned = []
    sources: dict[str, Any] = {}
    for benchmark in config["benchmarks"]:
        for r in run_records(benchmark):
            settings = settings_on(config, benchmark, r["system"])
            inputs = f"{results}/{benchmark}/inputs/{r['prompt']}.jsonl"
            estimate = None
            if mt_service.is_service(settings) and not Path(inputs).is_file():
                estimate = _estimate(config, benchmark, r["prompt"], sources)
            planned.append((r["system"], inputs, settings, estimate))
    lines, _ = _statement(mt_service, config, planned)
    for line in lines:
        print(f"gendermt: {line}", file=sys.stderr)


def _estimate(config: dict, benchmark: str, prompt: str, sources: dict[str, Any]
              ) -> list[tuple[str, str, str]] | None:
    """A prompt's requests estimated from the benchmark's data (its ``SOURCE_TEXTS`` hook,
    asked once a benchmark for all its prompts), or None. (The source language is a
    placeholder: the estimate counts distinct texts per target language.)"""
    from gendermt.translation.paid_work import estimated_sources

    if benchmark not in sources:
        spec = config["benchmarks"][benchmark]
        try:
            sources[benchmark] = estimated_sources(benchmark, spec,
                                                   list(spec.get("prompts", [])))
        except (GenderMTError, OSError):  # the data stage names what is wrong with it
            sources[benchmark] = None
    found = (sources[benchmark] or {}).get(prompt)
    if found is None:
        return None
    return [(text, "en", lang) for lang, texts in found.items() for text in texts]
