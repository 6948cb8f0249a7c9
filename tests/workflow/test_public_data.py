"""The public study needs no hand download, and offline with ../shared no network (issue 32's
done-when), through the workflow: the data stages of config/study/public.yaml (each
benchmark's data.json, not the whole study) in a fresh copy of the project with an empty data
cache, once against a loopback server laid out as raw.githubusercontent.com (the manifests'
mirror setting pointing at it), once offline from ``../shared/data`` beside the copy, as CI
has it, with the mirror pointing where nothing listens (any download attempt fails).
"""

from __future__ import annotations

import hashlib
import json
import socket
from pathlib import Path

import pytest
import yaml

from gendermt.data import datasets

from ..conftest import ROOT
from ..data_server import DataServer, github_routes
from ..workflow_support import RUN_TIMEOUT, copy_project, explain, output_of, snakemake

pytestmark = pytest.mark.workflow

SHARED = ROOT.parent / "shared"
STUDY = "config/study/public.yaml"
# the benchmarks of the public study that read a declared data set, and those data sets
BENCHMARKS = ["winomt", "mt-geneval", "gate-x-e", "gate"]
DATA_SETS = ["winomt", "mt-geneval", "gate-x-e", "gate"]
TARGETS = [f"results/public/{b}/data.json" for b in BENCHMARKS]

needs_shared = pytest.mark.skipif(
    not all((SHARED / "data" / name).is_dir() for name in DATA_SETS),
    reason="../shared/data (the real public data) is absent")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def overlay(workdir: Path, **sources) -> str:
    """A config file after the study's: the same run, other data sources (a nested key of
    a later --configfile replaces the study's)."""
    path = workdir / "sources.yaml"
    path.write_text(yaml.safe_dump({"run": "public",
                                    "data_sources": {"retry_wait": 0.05, **sources}}))
    return str(path)


def data_stages(workdir: Path, extra: str) -> object:
    return snakemake(workdir, *TARGETS, "--cores", "2", "--configfile", STUDY, extra,
                     timeout=RUN_TIMEOUT)


def recorded(workdir: Path) -> dict[str, list]:
    return {b: json.loads((workdir / target).read_text())["datasets"]
            for b, target in zip(BENCHMARKS, TARGETS, strict=True)}


@needs_shared
def test_public_study_data_stages_fetch_from_the_host_then_run_offline(tmp_path):
    manifests = datasets.manifests()
    study = yaml.safe_load((ROOT / STUDY).read_text())
    assert study["data_sources"]["local"] == ["../shared/data"]  # what the offline half uses
    wanted = [manifests[name] for name in DATA_SETS]

    # 1. a fresh copy, an empty data cache, no local copy: everything from the "host"
    online = copy_project(tmp_path / "online" / "project", share_cache=False)
    assert not (online / "data-cache").exists()
    with DataServer(tmp_path, routes=github_routes(wanted, SHARED / "data")) as host:
        proc = data_stages(online, overlay(online, local=[], mirror=host.github))
        assert proc.returncode == 0, explain(proc)
        # each file of each data set fetched exactly once, at its upstream path and commit
        assert dict(host.requests) == {route: 1 for route in host.routes}
    for manifest in wanted:
        folder = online / "data-cache" / manifest.name / manifest.commit
        for f in manifest.files:
            assert hashlib.sha256((folder / f.file).read_bytes()).hexdigest() == f.sha256
        assert f"downloaded {len(manifest.files)})" in output_of(proc)
    assert not list((online / "data-cache" / ".partial").iterdir())
    fetched = recorded(online)
    for benchmark, found in fetched.items():
        assert found, f"{benchmark}'s data.json records no data set"
        for entry in found:
            manifest = manifests[entry["dataset"]]
            assert (entry["repository"], entry["commit"]) == (manifest.repository,
                                                              manifest.commit)
            # the public URL, never the mirror it came from this time
            assert entry["url"].startswith("https://raw.githubusercontent.com/")

    # 2. another fresh copy, ../shared/data beside it (CI's layout) and the study's own
    # data_sources.local; the mirror points where nothing listens: no network is touched
    offline = copy_project(tmp_path / "offline" / "project", share_cache=False)
    (tmp_path / "offline" / "shared").symlink_to(SHARED, target_is_directory=True)
    down = f"http://127.0.0.1:{free_port()}/{{repo}}/{{commit}}/{{path}}"
    path = offline / "sources.yaml"
    path.write_text(yaml.safe_dump({"run": "public",
                                    "data_sources": {"mirror": down, "retries": 1}}))
    proc = data_stages(offline, str(path))
    assert proc.returncode == 0, explain(proc)
    for manifest in wanted:
        assert (f"from a local copy {len(manifest.files)}, downloaded 0)"
                in output_of(proc)), explain(proc)
    # the same data sets, commits and hashes recorded as when fetched
    assert recorded(offline) == fetched


@needs_shared
def test_the_gemma_runs_subsets_are_taken_by_the_data_stages_and_recorded(tmp_path):
    # config/study/public-gemma.yaml's data stages and a stored system's job on the subset:
    # the subset's items, the same on every run, recorded in data.json and the run summary
    import pandas as pd

    workdir = copy_project(tmp_path / "project", share_cache=False)
    (tmp_path / "shared").symlink_to(SHARED, target_is_directory=True)
    study = "config/study/public-gemma.yaml"
    spec = yaml.safe_load((ROOT / study).read_text())
    targets = ["results/public-gemma/winomt/data.json", "results/public-gemma/mt-geneval/data.json",
               "results/public-gemma/gate-x-e/data.json",
               "results/public-gemma/winomt/translations/google/fr.jsonl"]
    proc = snakemake(workdir, *targets, "--cores", "2", "--configfile", study,
                     timeout=RUN_TIMEOUT)
    assert proc.returncode == 0, explain(proc)
    results = workdir / "results" / "public-gemma"
    for benchmark in ("winomt", "mt-geneval", "gate-x-e"):
        recorded = json.loads((results / benchmark / "data.json").read_text())["subset"]
        setting = spec["benchmarks"][benchmark]["subset"]
        assert {k: recorded[k] for k in setting} == setting
        data = pd.read_parquet(results / benchmark / "data.parquet")
        assert len(data) == recorded["items"] < recorded["of_items"]
    # GATE X-E: whole instances, and the tuples follow their requests
    requests = pd.read_parquet(results / "gate-x-e" / "data.parquet")
    tuples = pd.read_parquet(results / "gate-x-e" / "tuples.parquet")
    recorded = json.loads((results / "gate-x-e" / "data.json").read_text())["subset"]
    assert recorded["units"] == requests["instance_id"].nunique() == 16
    assert set(tuples["item_id"]) == set(requests["item_id"])
    assert recorded["follow"]["tuples"]["rows"] == len(tuples) < recorded["follow"]["tuples"][
        "of_rows"]
    winomt = pd.read_parquet(results / "winomt" / "data.parquet")
    assert len(winomt) == 24 and winomt["stereotype"].value_counts().to_dict() == {
        "pro": 10, "anti": 10, "none": 4}
    # Google's published line of each kept sentence, not the subset's first 24 lines
    lines = (SHARED / "data/winomt/translations/google/en-fr.txt").read_text().splitlines()
    got = [json.loads(line) for line in
           (results / "winomt/translations/google/fr.jsonl").read_text().splitlines()]
    assert [g["item_id"] for g in got] == list(winomt["item_id"])
    assert [g["hypothesis"] for g in got] == [
        lines[int(r)].split("|||")[1].strip() for r in winomt["full_set_row"]]
