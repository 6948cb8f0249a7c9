"""Public data sets declared once and fetched, verified and pinned (gendermt.data.datasets).

Against a loopback HTTP server serving the real files of ../shared/data, through the real
storage plugin (snakemake-storage-plugin-http): fetch, rerun (nothing fetched), a tampered
file, a dropped connection, the server down, a local copy used without network.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import socket
from pathlib import Path

import pytest
import yaml

from gendermt.core.errors import GenderMTError
from gendermt.data import datasets
from gendermt.data.sources import Hasher

from ..conftest import ROOT
from ..data_server import DataServer

SHARED = ROOT.parent / "shared" / "data"
needs_shared = pytest.mark.skipif(not (SHARED / "gate-x-e").is_dir(),
                                  reason="../shared/data (the real public data) is absent")
GATE_X_E = "gate-x-e"  # the smallest data set with many files (17 files, 2.8 MB)


def config(root: str = "dataset:gate-x-e", **sources) -> dict:
    return {"benchmarks": {"gate-x-e": {"data": {"root": root}}}, "systems": {},
            "data_sources": {"retry_wait": 0.05, **sources}}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cache_files(cache: Path) -> list[Path]:
    return sorted(p for p in cache.rglob("*") if p.is_file())


# --- the manifests ------------------------------------------------------------------------
def test_every_benchmark_data_set_is_declared_once_with_commit_licence_and_hashes():
    found = datasets.manifests()
    assert set(found) == {"winomt", "mt-geneval", "gate", "gate-x-e", "isco08",
                          "fairtranslate", "neogate"}
    # the Hub's two are declared; hashes taken on first use (tests/unit/test_hub_datasets.py)
    for manifest in (m for m in found.values() if m.host == "github"):
        assert len(manifest.commit) == 40 and int(manifest.commit, 16) >= 0
        assert manifest.licence and manifest.files
        for f in manifest.files:
            assert len(f.sha256) == 64 and f.size > 0
        url = manifest.url(manifest.files[0])
        assert url == (f"https://raw.githubusercontent.com/{manifest.repository}/"
                       f"{manifest.commit}/{manifest.files[0].path}")


@needs_shared
@pytest.mark.parametrize("name", ["winomt", "mt-geneval", "gate", "gate-x-e", "isco08"])
def test_manifest_hashes_are_those_of_the_local_copy(name):
    manifest = datasets.manifests()[name]
    for f in manifest.files:
        data = (SHARED / name / f.file).read_bytes()
        assert (len(data), hashlib.sha256(data).hexdigest()) == (f.size, f.sha256), f.file


def test_unknown_data_set_or_file_names_the_key():
    with pytest.raises(GenderMTError, match=r"benchmarks\.gate-x-e\.data\.root: 'dataset:nope'"):
        datasets.resolve_config(config("dataset:nope"), Hasher(None))
    with pytest.raises(GenderMTError, match=r"data\.root: 'dataset:gate-x-e/klingon'.*no file"):
        datasets.resolve_config(config("dataset:gate-x-e/klingon"), Hasher(None))


def test_a_config_without_data_sets_is_left_alone(tmp_path):
    plain = config(str(tmp_path), cache=str(tmp_path / "cache"))
    before = json.dumps(plain, sort_keys=True)
    assert datasets.resolve_config(plain, Hasher(None)) == []
    assert json.dumps(plain, sort_keys=True) == before
    assert not (tmp_path / "cache").exists()


# --- through the plugin, against a loopback server ------------------------------------------
@needs_shared
def test_fetch_then_rerun_fetches_nothing(tmp_path):
    cache = tmp_path / "cache"
    manifest = datasets.manifests()[GATE_X_E]
    with DataServer(SHARED) as server:
        first = config(cache=str(cache), mirror=server.mirror)
        records = datasets.resolve_config(first, Hasher(None))
        assert sum(server.requests.values()) == len(manifest.files) == 17
        assert records[0]["obtained"] == {"cached": 0, "local": 0, "downloaded": 17}
        folder = cache / GATE_X_E / manifest.commit
        assert first["benchmarks"]["gate-x-e"]["data"]["root"] == str(folder)
        for f in manifest.files:
            assert hashlib.sha256((folder / f.file).read_bytes()).hexdigest() == f.sha256
        assert not list((cache / ".partial").iterdir())
        # recorded: source, commit, licence, every file's hash
        assert records[0]["repository"] == "MicrosoftTranslator/GATE-XE"
        assert records[0]["commit"] == manifest.commit
        assert len(records[0]["files"]) == 17 and records[0]["licence"]

        server.requests.clear()
        again = config(cache=str(cache), mirror=server.mirror)
        records = datasets.resolve_config(again, Hasher(None))
        assert sum(server.requests.values()) == 0
        assert records[0]["obtained"] == {"cached": 17, "local": 0, "downloaded": 0}


@needs_shared
def test_a_tampered_download_stops_naming_file_and_both_hashes(tmp_path):
    cache = tmp_path / "cache"
    manifest = datasets.manifests()[GATE_X_E]
    victim = next(f for f in manifest.files if f.file.endswith("GATE_data_tur.txt"))
    body = bytearray((SHARED / GATE_X_E / victim.file).read_bytes())
    body[0] ^= 1
    actual = hashlib.sha256(body).hexdigest()
    tampered = {f"/{GATE_X_E}/{victim.file}": "tamper"}
    with DataServer(SHARED, always=tampered) as server, pytest.raises(GenderMTError) as caught:
        datasets.resolve_config(config(cache=str(cache), mirror=server.mirror), Hasher(None))
    message = str(caught.value)
    assert victim.file in message and victim.sha256 in message and actual in message
    assert "\n" not in message
    folder = cache / GATE_X_E / manifest.commit
    assert not (folder / victim.file).exists()
    assert not list((cache / ".partial").iterdir())


@needs_shared
def test_a_dropped_connection_is_retried_and_leaves_no_partial_file(tmp_path):
    cache = tmp_path / "cache"
    manifest = datasets.manifests()[GATE_X_E]
    victim = next(f for f in manifest.files if f.file.endswith("GATE_data_fin.txt"))
    path = f"/{GATE_X_E}/{victim.file}"
    with DataServer(SHARED, faults={path: ["drop"]}) as server:
        records = datasets.resolve_config(config(cache=str(cache), mirror=server.mirror),
                                          Hasher(None))
        assert server.requests[path] == 2  # cut off once, then whole
    assert records[0]["obtained"]["downloaded"] == 17
    target = cache / GATE_X_E / manifest.commit / victim.file
    assert hashlib.sha256(target.read_bytes()).hexdigest() == victim.sha256
    assert not list((cache / ".partial").iterdir())


@needs_shared
def test_a_connection_dropped_every_time_fails_without_a_partial_file(tmp_path):
    cache = tmp_path / "cache"
    manifest = datasets.manifests()[GATE_X_E]
    victim = manifest.files[-1]
    path = f"/{GATE_X_E}/{victim.file}"
    with DataServer(SHARED, always={path: "drop"}) as server:
        with pytest.raises(GenderMTError, match="cannot fetch .*data_sources.local") as caught:
            datasets.resolve_config(config(cache=str(cache), mirror=server.mirror, retries=2),
                                    Hasher(None))
        assert server.requests[path] == 2
    assert victim.file in str(caught.value)
    assert not (cache / GATE_X_E / manifest.commit / victim.file).exists()
    assert not list((cache / ".partial").iterdir())


def test_server_down_and_no_local_copy_is_one_line_naming_url_and_setting(tmp_path):
    mirror = f"http://127.0.0.1:{free_port()}/{{dataset}}/{{file}}"
    with pytest.raises(GenderMTError) as caught:
        datasets.resolve_config(config(cache=str(tmp_path / "cache"), mirror=mirror,
                                       retries=2), Hasher(None))
    message = str(caught.value)
    assert "\n" not in message
    assert f"{mirror.split('/{')[0]}/{GATE_X_E}/" in message  # the URL
    assert "data_sources.local" in message  # the setting that points at a local copy
    assert not cache_files(tmp_path / "cache")


def test_the_public_host_is_the_default(tmp_path):
    # no mirror: the URL named is GitHub's, at the pinned commit (nothing is reachable here
    # but 127.0.0.1, so the test does not depend on the network: it only reads the message)
    manifest = datasets.manifests()[GATE_X_E]
    settings = datasets.settings_of(config(cache=str(tmp_path / "cache")))
    assert settings["mirror"] is None
    assert manifest.url(manifest.files[0], settings["mirror"]).startswith(
        f"https://raw.githubusercontent.com/MicrosoftTranslator/GATE-XE/{manifest.commit}/")


@needs_shared
def test_a_local_copy_is_used_without_network(tmp_path):
    cache = tmp_path / "cache"
    down = f"http://127.0.0.1:{free_port()}/{{dataset}}/{{file}}"  # nothing listens there
    cfg = config(cache=str(cache), mirror=down, local=[str(tmp_path / "elsewhere"),
                                                       str(SHARED)])
    records = datasets.resolve_config(cfg, Hasher(None))
    assert records[0]["obtained"] == {"cached": 0, "local": 17, "downloaded": 0}
    assert len(cache_files(cache / GATE_X_E)) == 17


@needs_shared
def test_a_tampered_local_copy_stops_before_anything_is_copied(tmp_path):
    local = tmp_path / "mirror"
    shutil.copytree(SHARED / GATE_X_E, local / GATE_X_E)
    manifest = datasets.manifests()[GATE_X_E]
    victim = manifest.files[3]
    target = local / GATE_X_E / victim.file
    target.chmod(0o644)
    target.write_bytes(target.read_bytes() + b"\n")
    actual = hashlib.sha256(target.read_bytes()).hexdigest()
    with pytest.raises(GenderMTError) as caught:
        datasets.resolve_config(config(cache=str(tmp_path / "cache"), local=str(local)),
                                Hasher(None))
    message = str(caught.value)
    assert str(target) in message and victim.sha256 in message and actual in message


@needs_shared
def test_read_by_keeps_only_the_files_a_stage_reads(tmp_path):
    cfg = {"benchmarks": {"winomt": {"data": {"path": "dataset:winomt/en.txt"}}},
           "systems": {"google": {"path": "dataset:winomt/translations/google/en-{prompt}.txt"}},
           "data_sources": {"cache": str(tmp_path / "cache"), "local": str(SHARED)}}
    records = datasets.resolve_config(cfg, Hasher(None))
    path = cfg["benchmarks"]["winomt"]["data"]["path"]
    assert cfg["systems"]["google"]["path"].endswith("translations/google/en-{prompt}.txt")
    found = datasets.read_by([path], records)
    assert [f["file"] for f in found[0]["files"]] == ["en.txt"]
    assert found[0]["commit"] == datasets.manifests()["winomt"].commit
    assert datasets.read_by([str(tmp_path / "other")], records) == []


# --- through the workflow ---------------------------------------------------------------
def _study(workdir: Path, cache: Path, **sources) -> Path:
    spec = yaml.safe_load((ROOT / "config/study/gate-x-e.yaml").read_text())
    spec["run"] = "fetched"
    spec["benchmarks"] = {"gate-x-e": {**spec["benchmarks"]["gate-x-e"],
                                       "data": {"root": "dataset:gate-x-e",
                                                "languages": ["turkish"]},
                                       "systems": ["rule-rewriter"]}}
    spec["systems"] = {"rule-rewriter": spec["systems"]["rule-rewriter"]}
    spec["data_sources"] = {"cache": str(cache), "retry_wait": 0.05, **sources}
    path = workdir / "fetched.yaml"
    path.write_text(yaml.safe_dump(spec))
    return path


@pytest.mark.workflow
@needs_shared
def test_workflow_fetches_records_and_stops_on_a_mismatch(tmp_path):
    from ..workflow_support import copy_project, explain, output_of, snakemake

    workdir = copy_project(tmp_path / "project", share_cache=False)
    manifest = datasets.manifests()[GATE_X_E]
    victim = next(f for f in manifest.files if f.file.endswith("GATE_data_tur.txt"))
    # a mismatch stops before anything runs: nothing under results/
    with DataServer(SHARED, always={f"/{GATE_X_E}/{victim.file}": "tamper"}) as server:
        study = _study(workdir, tmp_path / "cache", mirror=server.mirror)
        proc = snakemake(workdir, "results/fetched/gate-x-e/data.json", "--cores", "1",
                         "--configfile", str(study))
    assert proc.returncode != 0, explain(proc)
    assert victim.file in output_of(proc) and victim.sha256 in output_of(proc)
    assert not (workdir / "results").exists()
    before = len(cache_files(tmp_path / "cache" / GATE_X_E))  # the files fetched before it
    assert not (tmp_path / "cache" / GATE_X_E / manifest.commit / victim.file).exists()
    # fetched from the server, then the data stage records the data set in data.json
    with DataServer(SHARED) as server:
        study = _study(workdir, tmp_path / "cache", mirror=server.mirror)
        proc = snakemake(workdir, "results/fetched/gate-x-e/data.json", "--cores", "1",
                         "--configfile", str(study))
        assert proc.returncode == 0, explain(proc)
        assert sum(server.requests.values()) == 17 - before  # only what was missing
    provenance = json.loads((workdir / "results/fetched/gate-x-e/data.json").read_text())
    (recorded,) = provenance["datasets"]
    assert recorded["repository"] == "MicrosoftTranslator/GATE-XE"
    assert recorded["commit"] == manifest.commit and recorded["licence"] == manifest.licence
    read = {f["file"]: f["sha256"] for f in recorded["files"]}
    assert read == {f.file: f.sha256 for f in manifest.files
                    if f.file.startswith("turkish/meta_input/")}
    # offline with a local copy and an empty cache: no network (the mirror is down), same
    # results, nothing to rerun
    down = f"http://127.0.0.1:{free_port()}/{{dataset}}/{{file}}"
    shutil.rmtree(tmp_path / "cache")
    study = _study(workdir, tmp_path / "cache", mirror=down, local=str(SHARED))
    proc = snakemake(workdir, "results/fetched/gate-x-e/data.json", "--cores", "1", "-n",
                     "--configfile", str(study))
    assert proc.returncode == 0, explain(proc)
    assert "Nothing to be done" in output_of(proc), explain(proc)


@needs_shared
def test_the_run_summary_lists_each_data_set_with_every_file(tmp_path):
    from gendermt.workflow.run_record import summary

    cfg = {"run": "x", "benchmarks": {"gate-x-e": {"data": {"root": "dataset:gate-x-e"}}},
           "systems": {}, "data_sources": {"cache": str(tmp_path / "cache"),
                                           "local": str(SHARED)}}
    records = datasets.resolve_config(cfg, Hasher(None))
    found = summary("x", [], cfg, ROOT, Hasher(None), records)
    (entry,) = found["datasets"]
    manifest = datasets.manifests()[GATE_X_E]
    assert (entry["repository"], entry["commit"]) == (manifest.repository, manifest.commit)
    assert {f["file"]: f["sha256"] for f in entry["files"]} == {
        f.file: f.sha256 for f in manifest.files}
    assert "folder" not in entry and "obtained" not in entry  # where it came from: not a result
    assert "datasets" not in summary("x", [], {"benchmarks": {}, "systems": {}}, ROOT)


@pytest.mark.workflow
@needs_shared
def test_the_no_network_advice_is_a_config_snakemake_accepts(tmp_path):
    """With the network down, start-up's advice (`--config 'data_sources={local: ...}'`) is
    taken by Snakemake 9 as it is given, and the run then uses the local copy (issue 51)."""
    import re

    from ..workflow_support import copy_project, explain, output_of, snakemake

    workdir = copy_project(tmp_path / "project", share_cache=False)
    down = f"http://127.0.0.1:{free_port()}/{{dataset}}/{{file}}"
    study = _study(workdir, tmp_path / "cache", mirror=down, retries=1)
    target = "results/fetched/gate-x-e/data.json"
    proc = snakemake(workdir, target, "--cores", "1", "-n", "--configfile", str(study))
    assert proc.returncode != 0, explain(proc)
    advised = re.search(r"--config '([^']*)'", output_of(proc))
    assert advised, explain(proc)
    # the copy beside this test's project is not at ../shared/data: the same advice, with
    # where it is here
    entry = advised.group(1).replace("../shared/data", str(SHARED))
    proc = snakemake(workdir, target, "--cores", "1", "-n", "--configfile", str(study),
                     "--config", entry)
    assert proc.returncode == 0, explain(proc)
    assert "from a local copy 17" in output_of(proc), explain(proc)


@pytest.mark.workflow
def test_a_hub_revision_given_as_advised_runs_its_hashes_lock_and_rerun_only_on_change(
        tmp_path):
    """FairTranslate's study names the Hub data set, whose revision the user must give: the
    one-line advice, as Snakemake takes it, runs the data stage on the files of their first
    use (the shipped sample as the local copy at data/fairtranslate/); the lock then reruns
    nothing, and another revision reruns the data stage (gendermt.data.locks)."""
    import re

    from ..study_support import with_user_data
    from ..workflow_support import copy_project, explain, output_of, snakemake

    workdir = with_user_data(copy_project(tmp_path / "project", share_cache=False))
    target = "results/fairtranslate/fairtranslate/data.json"
    files = ("--configfile", "config/study/systems.yaml", "config/study/fairtranslate.yaml")
    proc = snakemake(workdir, target, "--cores", "1", "-n", *files)
    assert proc.returncode != 0, explain(proc)
    advised = re.search(r"--config '([^']*)'", output_of(proc))
    assert advised and "<commit>" in advised.group(1), explain(proc)
    assert not (workdir / "results" / "fairtranslate").exists()

    def given(commit: str) -> tuple[str, ...]:
        return (*files, "--config", advised.group(1).replace("<commit>", commit))

    proc = snakemake(workdir, target, "--cores", "1", *given("1" * 39 + "a"))
    assert proc.returncode == 0, explain(proc)
    assert "1 hashes taken now, at its first use (trust on first use)" in output_of(proc)
    lock = json.loads((workdir / "results/fairtranslate/datasets.lock.json").read_text())
    shard = workdir / "data/fairtranslate/data/train-00000-of-00001.parquet"
    assert lock["datasets"]["fairtranslate"]["files"][0]["sha256"] == hashlib.sha256(
        shard.read_bytes()).hexdigest()
    # the lock checked, not rewritten: nothing to rerun
    proc = snakemake(workdir, target, "--cores", "1", "-n", *given("1" * 39 + "a"))
    assert proc.returncode == 0, explain(proc)
    assert "checked against the hashes of its first use" in output_of(proc)
    assert "Nothing to be done" in output_of(proc), explain(proc)
    # another revision: the data stage reruns
    proc = snakemake(workdir, target, "--cores", "1", "-n", *given("2" * 39 + "b"))
    assert proc.returncode == 0, explain(proc)
    assert "fairtranslate_data" in output_of(proc), explain(proc)
