"""The study configs (config/study/*.yaml) and the project's stand-ins for the data they name
that the project does not ship: each benchmark's contract declares its `samples` (config key
→ a shipped file in the same published format), so that a new benchmark's study config is
planned by the shared tests without editing them.

The Snakefile includes only the configured benchmarks' rule files, so a test that checks
every rule (placement, fingerprints, env files) plans the default and, for every registered
benchmark the default does not configure, a study config that does (:func:`covering`)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import yaml

from gendermt.core import registry

from .conftest import ROOT

STUDY = ROOT / "config" / "study"
STUDIES = sorted(p.name for p in STUDY.glob("*.yaml") if p.name != "systems.yaml")
SHARED_DATA = ROOT.parent / "shared" / "data"


def merged(*files: str) -> dict[str, Any]:
    """Config files merged as Snakemake merges them (nested mappings updated key by key)."""
    def update(base, new):
        for key, value in new.items():
            if isinstance(value, dict) and isinstance(base.get(key), dict):
                update(base[key], value)
            else:
                base[key] = value
        return base
    config: dict[str, Any] = {}
    for path in files:
        update(config, yaml.safe_load((ROOT / path).read_text(encoding="utf-8")))
    return config


#: The config file that gives the Hub data sets the study configs name a revision where their
#: manifest has none (FairTranslate's: the user must give one; a made-up commit here, the
#: shipped sample standing in for its files as a local copy, whose hashes are taken on first
#: use). with_user_data writes it into the project's copy; ROOT has it under tests/data/.
HUB_REVISIONS = "tests/data/hub-revisions.yaml"


def study_files(study: str) -> list[str]:
    """A study config's files as the command line names them (with the papers' systems, and
    the revisions the user gives: :data:`HUB_REVISIONS`)."""
    return ["config/study/systems.yaml", f"config/study/{study}", HUB_REVISIONS]


def _lookup(config: Any, dotted: str) -> Any:
    for key in dotted.split("."):
        if not isinstance(config, dict) or key not in config:
            return None
        config = config[key]
    return config


def _stand_ins(config: dict[str, Any]) -> list[tuple[str, str]]:
    """(value the config names, the shipped sample that stands in for it) for every sample a
    configured benchmark's contract declares whose key the config sets."""
    found: list[tuple[str, str]] = []
    for bench in registry.configured(config.get("benchmarks", {})):
        block = config["benchmarks"][bench.name]
        for key, sample in bench.samples.items():
            value = _lookup(config, key[1:]) if key.startswith("/") else _lookup(block, key)
            if not isinstance(value, str):
                continue
            prompts = block.get("prompts", []) if "{prompt}" in value else [None]
            for prompt in prompts:
                found.append((value.format(prompt=prompt) if prompt else value,
                              sample.format(prompt=prompt) if prompt else sample))
    return found


def user_data(config: dict[str, Any]) -> dict[str, str]:
    """{path the config names: the shipped sample that stands in for it} for every sample a
    configured benchmark's contract declares whose key the config sets (a declared data
    set's file: where its local copy goes, :func:`_local`)."""
    return {_local(config, value): sample for value, sample in _stand_ins(config)}


def dataset_stand_ins(config: dict[str, Any]) -> dict[str, str]:
    """{``<name>/<file>`` of a declared data set the config names: the shipped sample that
    stands in for it}, to lay out as a local copy (``data_sources.local``)."""
    return {value[len("dataset:"):]: sample for value, sample in _stand_ins(config)
            if value.startswith("dataset:")}


def _local(config: dict[str, Any], value: str) -> str:
    """Where a config's value has the user put its file: a path as it is; a declared data
    set's file (``dataset:<name>/<file>``) in the config's first local copy
    (``data_sources.local``: ``<folder>/<name>/<file>``), used with no network."""
    if not value.startswith("dataset:"):
        return value
    local = (config.get("data_sources") or {}).get("local") or []
    folders = [local] if isinstance(local, str) else list(local)
    assert folders, f"{value}: the study config names no data_sources.local for its stand-in"
    return f"{folders[0]}/{value[len('dataset:'):]}"


def reads_shared_data(study: str) -> bool:
    return "../shared/data" in (STUDY / study).read_text(encoding="utf-8")


def runnable(study: str) -> bool:
    """False for a study that reads the public data in ../shared/data when it is not here."""
    return not reads_shared_data(study) or SHARED_DATA.is_dir()


def with_user_data(project: Path) -> Path:
    """``project`` (a copy) with every study's stand-in data at the paths the study names,
    the revisions the user gives (:data:`HUB_REVISIONS`), and ../shared beside it where the
    checkout has one (public data read as from the root)."""
    (project / HUB_REVISIONS).parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / HUB_REVISIONS, project / HUB_REVISIONS)
    for study in STUDIES:
        for dest, sample in user_data(merged(*study_files(study))).items():
            target = project / dest
            if Path(dest).is_absolute() or dest.startswith("..") or target.exists():
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(ROOT / sample, target)
    if (ROOT.parent / "shared").is_dir() and not (project.parent / "shared").exists():
        (project.parent / "shared").symlink_to(ROOT.parent / "shared")
    return project


def covering(configured: set[str]) -> list[str]:
    """Study configs that, together, configure every registered benchmark not in
    ``configured`` (the first study of each, by name; skipped when it cannot run here). The
    plans are for the rules: a benchmark whose rule file is already planned (every declared
    benchmark shares gendermt.benchmarks.declared's) needs no study config of its own."""
    rules = {b.name: registry.rules_file(b) for b in registry.benchmarks()}
    planned = {rules[name] for name in configured if name in rules}
    found: list[str] = []
    for name in registry.names():
        if name in configured or rules[name] in planned:
            continue
        study = next((s for s in STUDIES
                      if any(rules.get(b) == rules[name]
                             for b in merged(*study_files(s)).get("benchmarks", {}))), None)
        assert study, (f"benchmark {name} has no study config (config/study/*.yaml), nor does "
                       f"any benchmark of its rule file {rules[name]}")
        if runnable(study) and study not in found:
            found.append(study)
            configured = configured | set(merged(*study_files(study))["benchmarks"])
            planned |= {rules[b] for b in configured if b in rules}
    return found
