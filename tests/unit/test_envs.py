"""The conda env files (what cluster users run) agree with the Python dependencies."""

import re
import sys

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from ..conftest import ROOT

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

ENV_FILES = sorted((ROOT / "envs").glob("*.yaml"))


def declared_requirements() -> dict[str, list[Requirement]]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = [Requirement(r) for r in project["dependencies"]]
    for extra in project["optional-dependencies"].values():
        reqs += [Requirement(r) for r in extra]
    out: dict[str, list[Requirement]] = {}
    for req in reqs:
        out.setdefault(canonicalize_name(req.name), []).append(req)
    return out


def pip_pins(env_file):
    spec = yaml.safe_load(env_file.read_text())
    pips = [d["pip"] for d in spec["dependencies"] if isinstance(d, dict) and "pip" in d]
    return spec, [Requirement(p) for p in (pips[0] if pips else [])]


@pytest.mark.parametrize("env_file", ENV_FILES, ids=lambda p: p.name)
def test_env_pins_are_declared_and_in_range(env_file):
    declared = declared_requirements()
    spec, pins = pip_pins(env_file)
    assert "python=3.11" in spec["dependencies"], "envs pin the Python the project tests on"
    assert pins, f"{env_file.name} pins nothing"
    for pin in pins:
        name = canonicalize_name(pin.name)
        exact = [s for s in pin.specifier if s.operator == "=="]
        assert exact, f"{env_file.name}: {pin} is not pinned with =="
        assert name in declared, f"{env_file.name}: {pin.name} is not a dependency in pyproject"
        for req in declared[name]:
            assert req.specifier.contains(exact[0].version, prereleases=True), (
                f"{env_file.name}: {pin} is outside pyproject's {req}")


def test_comet_env_keeps_what_comet_needs():
    _, pins = pip_pins(ROOT / "envs" / "comet.yaml")
    version = {canonicalize_name(p.name): next(iter(p.specifier)).version for p in pins}
    assert version["unbabel-comet"] == "2.2.7"
    assert Requirement("numpy<2").specifier.contains(version["numpy"])
    assert Requirement("setuptools<81").specifier.contains(version["setuptools"])


def test_every_rule_names_an_existing_env():
    # the shared rule files and the benchmarks' own, beside their packages; a shared rule
    # file's conda: path is relative to it, a benchmark's names the env by env_file("<name>")
    # (common.smk: the workflow's envs/, wherever the package is installed)
    rules = [*sorted((ROOT / "workflow" / "rules").glob("*.smk")),
             *sorted((ROOT / "src" / "gendermt" / "benchmarks").rglob("*.smk"))]
    assert len(rules) > 7
    for path in rules:
        text = path.read_text()
        named = [(path.parent / rel).resolve()
                 for rel in re.findall(r'conda:\s*\n\s*"([^"]+)"', text)]
        named += [ROOT / "envs" / name
                  for name in re.findall(r'conda:\s*\n\s*env_file\("([^"]+)"\)', text)]
        n_rules = len(re.findall(r"^\s*rule( \w+)?:", text, flags=re.M))  # named or not
        assert len(named) == n_rules, f"{path}: every rule names its conda env"
        for env in named:
            assert env.is_file(), f"{path}: {env}"


def test_the_shared_stack_agrees_across_env_files():
    versions: dict[str, set[str]] = {}
    for env_file in ENV_FILES:
        if env_file.name == "comet.yaml":
            continue
        for pin in pip_pins(env_file)[1]:
            versions.setdefault(canonicalize_name(pin.name), set()).add(str(pin.specifier))
    assert {k: v for k, v in versions.items() if len(v) > 1} == {}
