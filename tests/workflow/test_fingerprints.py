"""Every job's code fingerprint covers the modules that job runs and no more (issue 21).

A rule's ``params: code=stage_code(...)`` (and any ``*_code`` param) must cover every
gendermt module its ``script:`` imports (editing one reruns the job) and no module the script
does not reach (editing one reruns nothing of it), where "reach" is the script's imports,
followed transitively, plus the modules the job loads by name, invisible to the imports: the
backend module of each configured system it builds (a GAMBIT judge, a ConGA annotator) and the
scorecard's readers (found through the registry). A translation job's fingerprint is declared
instead (gendermt.workflow.translation_code: the runner's and its backend's versions, and the
code of a reader its backend loads by name), so that no refactoring reruns paid translations.
Checked on every rule of the parsed workflow whose fingerprint is fixed at parse time, and on
every planned job of the default run (fingerprints computed per job).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from gendermt.scorecard.figures import reader_modules
from gendermt.translation.backends import system_modules
from gendermt.workflow.import_graph import imported_by, modules_run_by

from ..conftest import ROOT
from ..dag_params import plan
from ..workflow_support import copy_project

# Modules a rule's jobs load by name besides backends.
BY_NAME = {"scorecard": reader_modules()}


def by_name(rule: str) -> list[str]:
    """BY_NAME's, and an explorer page job's benchmark module (report.smk's explorer_<name>
    rules load the module their benchmark's rule file names, ``params.module``): the
    benchmark's package's, or the declared benchmarks' for a name the registry lacks."""
    if not rule.startswith("explorer_"):
        return BY_NAME.get(rule, [])
    from gendermt.core import registry

    name = rule.removeprefix("explorer_")
    packages = [b.package for b in registry.benchmarks() if b.name.replace("-", "_") == name]
    return [f"{(packages or ['gendermt.benchmarks.declared'])[0]}.explorer"]


def closure(modules) -> set[str]:
    return set().union(*(modules_run_by(m) for m in modules)) if modules else set()


#: rules whose code param is a declared translation fingerprint
TRANSLATION_RULES = ("translate", "translate_sources")


def systems_built(rule: str, wildcards: dict, params: dict) -> list[str]:
    """The configured systems a job builds a backend for."""
    if rule in (*TRANSLATION_RULES, "winomt_whole"):
        return [wildcards["system"]]
    if params.get("judge"):
        return list(params["judge"])
    annotator = params.get("annotator")
    return [annotator["system"]] if isinstance(annotator, dict) else []


def faults(rule: str, script: str | None, code: dict, backends: list[str]) -> list[str]:
    """What is wrong with one rule's (or job's) fingerprints: [] if nothing."""
    if script is None:
        return []
    imports = set(imported_by(script))
    if not imports:
        return []
    if not code:
        return [f"{rule}: its script imports {sorted(imports)} but it has no code param"]
    if rule in TRANSLATION_RULES:
        return [] if all(isinstance(v, dict) for v in code.values()) else [
            f"{rule}: its code param is not the declared translation fingerprint: {code}"]
    bad = [f"{rule}: {k} is {v}" for k, v in code.items() if not isinstance(v, list)]
    if bad:
        return bad
    covered = closure([m for names in code.values() for m in names])
    reach = closure(imports) | closure(backends) | closure(by_name(rule))
    found = []
    missing = sorted(imports - covered)
    if missing:
        found.append(f"{rule}: its code param does not cover {missing}, which "
                     f"{Path(script).name} imports")
    extra = sorted(covered - reach)
    if extra:
        found.append(f"{rule}: its code param covers {extra}, which {Path(script).name} "
                     "does not reach")
    return found


def normalizer_modules(params: dict) -> list[str]:
    """The hypothesis normaliser's module a scoring job loads by name (its contract's)."""
    from gendermt.scoring.normalization import normalizer_module

    settings = params.get("settings")
    name = params.get("normalize") or (settings.get("normalize_hypotheses")
                                       if isinstance(settings, dict) else None)
    return [normalizer_module(name)] if name else []


def backend_modules(config: dict, systems: list[str]) -> list[str]:
    """The systems' backend modules and what they load by name (a stored format's reader)."""
    return [m for s in systems for m in system_modules(config["systems"][s])]


@pytest.fixture(scope="module")
def planned(tmp_path_factory):
    project = copy_project(tmp_path_factory.mktemp("fingerprints") / "project",
                           share_cache=False)
    return project, plan(project, "config/config.yaml")


def all_faults(found: dict, config: dict) -> list[str]:
    out = []
    for rule in found["rules"]:
        if any(v == "per job" for v in rule["code"].values()):
            continue  # computed per job: checked on the planned jobs
        out += faults(rule["rule"], rule["script"], rule["code"], [])
    for job in found["jobs"]:
        systems = systems_built(job["rule"], job["wildcards"], job["params"])
        out += faults(job["rule"], job["script"], job["code"],
                      backend_modules(config, systems) + normalizer_modules(job["params"]))
    return sorted(set(out))


def test_every_fingerprint_covers_what_its_job_runs_and_no_more(planned):
    _, found = planned
    config = yaml.safe_load((ROOT / "config" / "config.yaml").read_text(encoding="utf-8"))
    assert all_faults(found, config) == []
    # every rule with a script was looked at: none lacks a fingerprint
    scripted = {r["rule"] for r in found["rules"] if r["script"]}
    assert scripted and all(found_rule["code"] for found_rule in found["rules"]
                            if found_rule["rule"] in scripted)
    # the per-job ones: a translation job declares its own system's backend and version
    from gendermt.core import backends
    from gendermt.translation.backends.apertium import Apertium
    from gendermt.workflow.stage_versions import RUNNER

    translate = [j for j in found["jobs"] if j["rule"] == "translate"]
    assert translate
    for job in translate:
        declared = job["code"]["code"]["declared"]
        # (two backends whose translation code had one legacy fingerprint share a value)
        assert declared[0] == "translation" and declared[3][0] == RUNNER, job
        assert declared[1] in backends.names(), job
    stored = next(j for j in translate if j["wildcards"]["system"] == "gambit-mixed")
    assert stored["code"]["code"]["declared"][2:] == [1, [RUNNER]]
    assert Apertium.request_version == 2  # a version bump is what reruns a backend's jobs


def test_a_rule_whose_fingerprint_names_the_wrong_module_is_caught(planned, tmp_path):
    # the checker on a deliberately wrong rule: GATE's tables fingerprinted with its figures
    project, found = planned
    rules = {r["rule"]: r for r in found["rules"]}
    wrong = faults("gate_tables", rules["gate_tables"]["script"],
                   {"code": ["gendermt.benchmarks.gate.figures"]}, [])
    assert len(wrong) == 2
    assert "does not cover ['gendermt.benchmarks.gate.tables']" in wrong[0]
    assert "gendermt.benchmarks.gate.figures" in wrong[1] and "does not reach" in wrong[1]
    # ... and in a rule file: the parsed workflow shows it
    rule_file = project / "src/gendermt/benchmarks/gate/rules.smk"
    text = rule_file.read_text(encoding="utf-8")
    right = 'code=stage_code("gendermt.benchmarks.gate.tables"),'
    assert right in text
    rule_file.write_text(text.replace(right, right.replace(
        '"gendermt.benchmarks.gate.tables"',
        '"gendermt.benchmarks.gate.tables", "gendermt.benchmarks.conga.tables"')),
        encoding="utf-8")
    try:
        broken = plan(project, "config/config.yaml")
    finally:
        rule_file.write_text(text, encoding="utf-8")
    config = yaml.safe_load((ROOT / "config" / "config.yaml").read_text(encoding="utf-8"))
    found_faults = all_faults(broken, config)
    assert found_faults and all(f.startswith("gate_tables:") for f in found_faults)
    assert "gendermt.benchmarks.conga.tables" in found_faults[0]


def test_a_script_import_the_fingerprint_misses_is_caught():
    script = ROOT / "src/gendermt/benchmarks/gambit/scripts/detect.py"
    assert "gendermt.benchmarks.gambit.evaluate" in imported_by(script)
    wrong = faults("gambit_detect", str(script),
                   {"code": ["gendermt.translation.cache", "gendermt.data.io"]}, [])
    assert wrong == ["gambit_detect: its code param does not cover "
                     "['gendermt.benchmarks.gambit.evaluate'], which detect.py imports"]


def test_the_rules_of_the_benchmarks_the_default_does_not_configure(study_plans):
    """Their rule files are included only for a config that configures them: planned with
    a study config that does (tests/study_support.py)."""
    from ..study_support import merged, study_files

    _, plans = study_plans
    for study, found in plans.items():
        assert all_faults(found, merged(*study_files(study))) == [], study
    # a stored system in WinoMT's format: its translation jobs declare the version of the
    # format's reader, which the stored backend loads by name from WinoMT's contract
    from gendermt.workflow.stage_versions import RUNNER

    reader = "gendermt.benchmarks.winomt.stored_format"
    in_format = []
    for study, found in plans.items():
        systems = merged(*study_files(study))["systems"]
        in_format += [j for j in found["jobs"] if j["rule"] == "translate"
                      and systems[j["wildcards"]["system"]].get("format") == "winomt"]
    # where a planned study has such a system (they read ../shared/data: without it, none is)
    if any(spec.get("format") == "winomt" for study in plans
           for spec in merged(*study_files(study))["systems"].values()):
        assert in_format
    assert all(j["code"]["code"]["declared"][3] == [RUNNER, reader] for j in in_format)


def test_a_scoring_job_covers_its_benchmarks_normaliser_only_when_it_applies_one():
    """The normaliser is the contract's (scoring/normalization.py names no benchmark), loaded
    by name: a job that applies it covers its module, the default's jobs do not."""
    from gendermt.benchmarks.fairtranslate import authors
    from gendermt.scoring.normalization import normalizer, normalizer_module

    assert normalizer_module("non_binary_standardization") == (
        "gendermt.benchmarks.fairtranslate.authors")
    assert normalizer("non_binary_standardization") is authors.non_binary_standardization
    source = (ROOT / "src/gendermt/scoring/normalization.py").read_text(encoding="utf-8")
    assert "fairtranslate" not in source.split('"""', 2)[2]
    assert not any("fairtranslate.authors" in m for m in closure(["gendermt.scoring.score"]))
