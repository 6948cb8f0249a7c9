"""Hugging Face Hub data sets (FairTranslate, Neo-GATE): declared in manifests, fetched through
the real ``huggingface_hub`` at a pinned revision into the data cache, verified by sha256
(gendermt.data.datasets), against a loopback server standing in for the Hub (``hub_endpoint``).

Neo-GATE's shipped manifest pins a revision but no hash, FairTranslate's neither (no Hub access
where they were written): FairTranslate stops with one line until the config gives a revision;
files without a hash are trusted on first use (gendermt.data.locks: the hashes taken at the
first fetch, locked beside the run's results and in the data cache, checked on every later
run). The fetching with a manifest's hashes is tested with a manifest pinned here to files the
test serves.
"""

from __future__ import annotations

import hashlib
import json
import socket
from pathlib import Path

import pytest

from gendermt.core.errors import GenderMTError
from gendermt.data import datasets, locks
from gendermt.data.sources import Hasher

from ..conftest import ROOT
from ..data_server import HubServer

pytest.importorskip("huggingface_hub", reason="needs the hub extra: pip install -e '.[hub]'")

REPO = "FBK-MT/Neo-GATE"
REVISION = "0123456789abcdef0123456789abcdef01234567"
NEOGATE_REVISION = "be2f9358af268fad015e34d6ad5a07c47aac1858"
# the project's own Neo-GATE sample files stand in for the Hub's
FILES = {"Neo-GATE.tsv": ROOT / "resources/neogate/Neo-GATE.tsv",
         "Neo-GATE-dev.tsv": ROOT / "resources/neogate/Neo-GATE-dev.tsv",
         "asterisk.json": ROOT / "resources/neogate/asterisk.json"}


def pinned_manifest(tmp_path: Path, tamper_hash: str | None = None) -> datasets.Manifest:
    lines = ["dataset: neogate", "title: Neo-GATE (test)", "licence: CC BY-4.0",
             "source:", f"  hub: {REPO}", f"  revision: {REVISION}", "files:"]
    for name, local in FILES.items():
        data = local.read_bytes()
        sha = hashlib.sha256(data).hexdigest() if name != tamper_hash else "0" * 64
        lines.append(f"  - {{file: {name}, path: {name}, size: {len(data)}, sha256: {sha}}}")
    path = tmp_path / "neogate.yaml"
    path.write_text("\n".join(lines) + "\n")
    return datasets.load_manifest(path)


def config(cache: Path, **sources) -> dict:
    return {"benchmarks": {"neogate": {"data": {"test": "dataset:neogate/Neo-GATE.tsv",
                                                "dev": "dataset:neogate/Neo-GATE-dev.tsv"}}},
            "systems": {}, "data_sources": {"cache": str(cache), "retry_wait": 0.05,
                                            **sources}}


def hub(**kw) -> HubServer:
    return HubServer({(REPO, REVISION, name): local for name, local in FILES.items()}, **kw)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_shipped_hub_manifests_pin_neogate_and_say_fairtranslate_has_no_revision():
    found = datasets.manifests()
    assert {found[n].repository for n in ("fairtranslate", "neogate")} == {
        "Fannyjrd/FairTranslate_fr", "FBK-MT/Neo-GATE"}
    for name in ("fairtranslate", "neogate"):
        manifest = found[name]
        assert manifest.host == "hub" and manifest.unverified
        # no invented hash: every unknown one is left empty (taken on first use)
        assert all(f.sha256 == "" and f.size == -1 for f in manifest.files)
    # Neo-GATE: the full revision the Hub's pages show, its card's `main` config's two files
    assert found["neogate"].commit == NEOGATE_REVISION
    assert [f.path for f in found["neogate"].files] == ["Neo-GATE.tsv", "Neo-GATE-dev.tsv"]
    assert found["fairtranslate"].commit == ""


def test_fairtranslate_without_a_revision_stops_in_one_line_saying_what_to_give(tmp_path):
    manifest = datasets.manifests()["fairtranslate"]
    ref = "dataset:fairtranslate/data/train-00000-of-00001.parquet"
    local = tmp_path / "local"
    (local / "fairtranslate" / manifest.files[0].file).parent.mkdir(parents=True)
    (local / "fairtranslate" / manifest.files[0].file).write_bytes(b"anything")
    cfg = {"benchmarks": {"fairtranslate": {"data": {"path": ref}}}, "systems": {},
           "data_sources": {"cache": str(tmp_path / "cache"), "local": str(local)}}
    with pytest.raises(GenderMTError) as caught:
        datasets.resolve_config(cfg, Hasher(None), run_dir=tmp_path / "results")
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith("benchmarks.fairtranslate.data.path: ")
    assert manifest.repository in message and "no revision" in message
    assert manifest.declared_in in message
    # how: the config key and where to find a commit
    assert "data_sources: {revisions: {fairtranslate: <commit>}}" in message
    assert "gendermt data pin fairtranslate" in message
    assert not (tmp_path / "cache").exists() and not (tmp_path / "results").exists()


@pytest.mark.parametrize("revisions,match", [
    ({"fairtranslate": "main"},
     r"data_sources\.revisions\.fairtranslate: 'main' is not a full 40-digit commit.*"
     r"gendermt data pin fairtranslate --revision main"),
    ({"fairtranslate": "be2f935"}, r"'be2f935' is not a full 40-digit commit"),
    ({"nothing": NEOGATE_REVISION},
     r"data_sources\.revisions\.nothing: no data set 'nothing'"),
    ({"winomt": NEOGATE_REVISION}, r"data_sources\.revisions\.winomt: winomt is a GitHub data "
                                   r"set")])
def test_a_revision_in_the_config_must_be_a_hub_data_sets_full_commit(tmp_path, revisions,
                                                                      match):
    cfg = {"benchmarks": {}, "systems": {},
           "data_sources": {"cache": str(tmp_path / "cache"), "revisions": revisions}}
    with pytest.raises(GenderMTError, match=match):
        datasets.resolve_config(cfg, Hasher(None))


def test_a_hub_manifest_without_hashes_must_say_why(tmp_path):
    path = tmp_path / "m.yaml"
    path.write_text(f"dataset: x\nlicence: l\nsource: {{hub: a/b, revision: {REVISION}}}\n"
                    "files:\n  - {file: f, path: f, size: null, sha256: null}\n")
    with pytest.raises(GenderMTError, match=r"m\.yaml: no size and sha256 for f; pin them"):
        datasets.load_manifest(path)


def test_fetch_from_the_hub_at_the_pinned_revision_then_rerun_fetches_nothing(tmp_path):
    manifest = pinned_manifest(tmp_path)
    cache = tmp_path / "cache"
    with hub() as server:
        cfg = config(cache, hub_endpoint=server.endpoint)
        records = datasets.resolve_config(cfg, Hasher(None), {"neogate": manifest})
        # every file of the data set, each once, at the pinned revision
        assert sorted(server.requests) == sorted(
            f"/datasets/{REPO}/resolve/{REVISION}/{name}" for name in FILES)
        assert set(server.requests.values()) == {1}
        assert records[0]["obtained"] == {"cached": 0, "local": 0, "downloaded": 3}
        folder = cache / "neogate" / REVISION
        assert cfg["benchmarks"]["neogate"]["data"]["test"] == str(folder / "Neo-GATE.tsv")
        for name, local in FILES.items():
            assert (folder / name).read_bytes() == local.read_bytes()
        # nothing else left in the cache: no staging folder, no huggingface_hub metadata
        assert sorted(p.name for p in folder.iterdir()) == sorted(FILES)
        assert not list((cache / ".partial").iterdir())
        # recorded: the Hub, the repo id, the revision, the public URL, every hash
        assert records[0]["source"] == "huggingface"
        assert (records[0]["repository"], records[0]["commit"]) == (REPO, REVISION)
        assert records[0]["url"].startswith(
            f"https://huggingface.co/datasets/{REPO}/resolve/{REVISION}/")
        server.requests.clear()
        server.heads.clear()
        again = config(cache, hub_endpoint=server.endpoint)
        records = datasets.resolve_config(again, Hasher(None), {"neogate": manifest})
        assert not server.requests and not server.heads
        assert records[0]["obtained"] == {"cached": 3, "local": 0, "downloaded": 0}


def test_a_tampered_hub_file_stops_naming_file_and_both_hashes(tmp_path):
    manifest = pinned_manifest(tmp_path)
    victim = next(f for f in manifest.files if f.file == "Neo-GATE-dev.tsv")
    body = bytearray(FILES[victim.file].read_bytes())
    body[0] ^= 1
    actual = hashlib.sha256(body).hexdigest()
    cache = tmp_path / "cache"
    path = f"/datasets/{REPO}/resolve/{REVISION}/{victim.path}"
    with hub(always={path: "tamper"}) as server, pytest.raises(GenderMTError) as caught:
        datasets.resolve_config(config(cache, hub_endpoint=server.endpoint), Hasher(None),
                                {"neogate": manifest})
    message = str(caught.value)
    assert "\n" not in message
    assert victim.path in message and victim.sha256 in message and actual in message
    assert not (cache / "neogate" / REVISION / victim.file).exists()
    assert not list((cache / ".partial").iterdir())


def test_hub_down_and_no_local_copy_is_one_line_naming_repo_revision_and_setting(tmp_path,
                                                                                 monkeypatch):
    import time
    import types

    from huggingface_hub.utils import _http

    # huggingface_hub's own back-off (1+2+4+8+8 s) recorded, not slept: 23 s of the suite
    waits: list[float] = []
    monkeypatch.setattr(_http, "time", types.SimpleNamespace(**{
        **{name: getattr(time, name) for name in dir(time) if not name.startswith("_")},
        "sleep": waits.append}))
    manifest = pinned_manifest(tmp_path)
    endpoint = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    with pytest.raises(GenderMTError) as caught:
        datasets.resolve_config(config(tmp_path / "cache", hub_endpoint=endpoint, retries=1),
                                Hasher(None), {"neogate": manifest})
    message = str(caught.value)
    assert "\n" not in message
    assert REPO in message and REVISION in message
    assert "data_sources.local" in message and "data_sources.hub_endpoint" in message
    assert "without network" in message  # the network failed: the advice is for that
    assert not [p for p in (tmp_path / "cache").rglob("*") if p.is_file()]
    assert waits, "huggingface_hub retried with back-off before the error"


def test_a_file_the_hub_lacks_is_named_as_such_without_the_no_network_advice(tmp_path):
    """HTTP 404 from the Hub is no network failure: the line says what was not found and
    what to check, not how to work offline (issue 51)."""
    manifest = pinned_manifest(tmp_path)
    served = {(REPO, REVISION, name): local for name, local in FILES.items()
              if name != "Neo-GATE-dev.tsv"}
    with HubServer(served) as server, pytest.raises(GenderMTError) as caught:
        datasets.resolve_config(config(tmp_path / "cache", hub_endpoint=server.endpoint),
                                Hasher(None), {"neogate": manifest})
    message = str(caught.value)
    assert "\n" not in message and "Neo-GATE-dev.tsv" in message
    assert "404" in message and "without network" not in message
    assert manifest.declared_in in message  # what to check


def test_a_local_copy_of_a_hub_data_set_is_used_offline(tmp_path):
    manifest = pinned_manifest(tmp_path)
    local = tmp_path / "mirror" / "neogate"
    local.mkdir(parents=True)
    for name, src in FILES.items():
        (local / name).write_bytes(src.read_bytes())
    endpoint = f"http://127.0.0.1:{free_port()}"  # nothing listens: no network is used
    cfg = config(tmp_path / "cache", hub_endpoint=endpoint, local=str(tmp_path / "mirror"))
    records = datasets.resolve_config(cfg, Hasher(None), {"neogate": manifest})
    assert records[0]["obtained"] == {"cached": 0, "local": 3, "downloaded": 0}
    # a local copy whose hash differs stops, naming it
    (local / "asterisk.json").write_bytes(b"{}")
    with pytest.raises(GenderMTError, match=r"local copy .*asterisk\.json: sha256"):
        datasets.resolve_config(config(tmp_path / "cache2", hub_endpoint=endpoint,
                                       local=str(tmp_path / "mirror")),
                                Hasher(None), {"neogate": manifest})


def test_data_pin_prints_the_manifest_lines_of_the_hubs_files(tmp_path, capsys):
    # `gendermt data pin`: what a user with network runs to pin a shipped Hub manifest. The
    # stand-in Hub serves a file for each of the shipped Neo-GATE manifest's paths at a
    # commit that `main` names; the printed lines, pasted into the manifest (its
    # `unverified:` deleted), make a pinned manifest of exactly the served files
    from gendermt.cli import main

    shipped = datasets.manifests()["neogate"]
    served = {}
    for k, f in enumerate(shipped.files):
        local = tmp_path / "hub" / f.path
        local.parent.mkdir(parents=True, exist_ok=True)
        local.write_bytes(f"file {k} of the stand-in Hub: {f.path}\n".encode())
        served[f.path] = local
    files = {(REPO, ref, path): local for path, local in served.items()
             for ref in ("main", REVISION)}
    with HubServer(files, commits={"main": REVISION}) as server:
        assert main(["data", "pin", "neogate", "--endpoint", server.endpoint]) == 0
        out, err = capsys.readouterr()
        assert main(["data", "pin", "neogate", "--endpoint", server.endpoint, "--json"]) == 0
        printed = json.loads(capsys.readouterr().out)
    assert out.startswith(f"source:\n  hub: {REPO}\n  revision: {REVISION}\nfiles:\n")
    assert shipped.declared_in in err and "unverified" in err
    assert printed["revision"] == REVISION and printed["manifest"] == shipped.declared_in
    assert [(f["path"], f["size"], f["sha256"]) for f in printed["files"]] == [
        (p, len(local.read_bytes()), hashlib.sha256(local.read_bytes()).hexdigest())
        for p, local in served.items()]
    text = Path(shipped.declared_in).read_text(encoding="utf-8")
    kept = [line for line in text.split("\nsource:")[0].splitlines()
            if not line.startswith("unverified:")]
    pasted = tmp_path / "dataset.yaml"
    pasted.write_text("\n".join(kept) + "\n" + out, encoding="utf-8")
    pinned = datasets.load_manifest(pasted)
    assert not pinned.unverified and pinned.commit == REVISION
    assert [(f.file, f.sha256) for f in pinned.files] == [
        (f["file"], f["sha256"]) for f in printed["files"]]


def test_data_pin_refuses_github_data_sets_and_says_why_the_hub_failed(tmp_path, capsys):
    from gendermt.cli import main

    assert main(["data", "pin", "winomt"]) == 2
    assert "not a Hub data set" in capsys.readouterr().err
    assert main(["data", "pin", "nothing"]) == 2
    assert "no data set 'nothing'" in capsys.readouterr().err
    down = f"http://127.0.0.1:{free_port()}"
    assert main(["data", "pin", "neogate", "--endpoint", down]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and REPO in err and "--endpoint" in err


# --- hashes taken on first use (gendermt.data.locks) --------------------------------------
# Neo-GATE's shipped manifest: its pinned revision, no published hash. The stand-in Hub serves
# the project's sample files as the Hub's at that revision.
TOFU_FILES = {"Neo-GATE.tsv": FILES["Neo-GATE.tsv"], "Neo-GATE-dev.tsv": FILES["Neo-GATE-dev.tsv"]}


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def hub_at(revision: str, files: dict[str, Path] = TOFU_FILES, **kw) -> HubServer:
    return HubServer({(REPO, revision, name): local for name, local in files.items()}, **kw)


def first_use(tmp_path: Path, server: HubServer, cache: str = "cache", **sources):
    cfg = config(tmp_path / cache, hub_endpoint=server.endpoint, **sources)
    records = datasets.resolve_config(cfg, Hasher(None), run_dir=tmp_path / "results" / "r")
    return cfg, records


def test_neogate_first_use_fetches_the_pinned_revision_and_locks_every_hash(tmp_path):
    run_lock = tmp_path / "results" / "r" / locks.RUN_LOCK
    cache_lock = tmp_path / "cache" / "neogate" / f"{NEOGATE_REVISION}.lock.json"
    with hub_at(NEOGATE_REVISION) as server:
        cfg, records = first_use(tmp_path, server)
        # the pinned revision in every URL, each file once
        assert sorted(server.requests) == sorted(
            f"/datasets/{REPO}/resolve/{NEOGATE_REVISION}/{name}" for name in TOFU_FILES)
        assert set(server.requests.values()) == {1}
    folder = tmp_path / "cache" / "neogate" / NEOGATE_REVISION
    assert cfg["benchmarks"]["neogate"]["data"]["test"] == str(folder / "Neo-GATE.tsv")
    # the lock: beside the run's results and beside the cached folder (never in it)
    assert sorted(p.name for p in folder.iterdir()) == sorted(TOFU_FILES)
    for lock in (run_lock, cache_lock):
        entry = json.loads(lock.read_text())["datasets"]["neogate"]
        assert entry["revision"] == NEOGATE_REVISION
        assert entry["hashes"] == "trust on first use" and entry["first_use"]
        assert [(f["file"], f["size"], f["sha256"]) for f in entry["files"]] == [
            (name, local.stat().st_size, sha(local)) for name, local in TOFU_FILES.items()]
    # the record (data.json, the run summary) says where the hashes come from
    (record,) = records
    assert record["hashes"] == "trust on first use" and record["lock"] == str(run_lock)
    assert record["commit"] == NEOGATE_REVISION
    assert [f["sha256"] for f in record["files"]] == [sha(p) for p in TOFU_FILES.values()]
    assert record["obtained"] == {"cached": 0, "local": 0, "downloaded": 2, "first_use": 2}


def test_a_later_run_is_checked_against_the_lock_and_its_record_is_the_same(tmp_path):
    with hub_at(NEOGATE_REVISION) as server:
        _, first = first_use(tmp_path, server)
        run_lock = (tmp_path / "results" / "r" / locks.RUN_LOCK).read_bytes()
        server.requests.clear()
        _, again = first_use(tmp_path, server)
        assert not server.requests  # from the cache, checked against the lock
        # a fresh data cache: fetched again and checked against the run's lock
        _, fresh = first_use(tmp_path, server, cache="cache2")
        assert len(server.requests) == 2
    assert again[0]["obtained"] == {"cached": 2, "local": 0, "downloaded": 0, "first_use": 0}
    # what the data stages get as params is the same: an unchanged lock reruns nothing
    strip = ("folder", "obtained")
    assert ({k: v for k, v in again[0].items() if k not in strip}
            == {k: v for k, v in first[0].items() if k not in strip})
    assert fresh[0]["files"] == first[0]["files"]
    assert (tmp_path / "results" / "r" / locks.RUN_LOCK).read_bytes() == run_lock  # untouched
    assert (tmp_path / "cache2" / "neogate" / f"{NEOGATE_REVISION}.lock.json").is_file()


def test_a_file_changed_at_the_same_revision_is_refused_naming_it_and_both_hashes(tmp_path):
    victim = "Neo-GATE-dev.tsv"
    body = bytearray(TOFU_FILES[victim].read_bytes())
    body[0] ^= 1
    changed = hashlib.sha256(body).hexdigest()
    url = f"/datasets/{REPO}/resolve/{NEOGATE_REVISION}/{victim}"
    with hub_at(NEOGATE_REVISION) as server:
        first_use(tmp_path, server)
    # the Hub (or its mirror) now serves other bytes at the same revision; a fresh cache
    with hub_at(NEOGATE_REVISION, always={url: "tamper"}) as server, \
            pytest.raises(GenderMTError) as caught:
        first_use(tmp_path, server, cache="cache2")
    message = str(caught.value)
    assert "\n" not in message and victim in message
    assert sha(TOFU_FILES[victim]) in message and changed in message
    assert "first use" in message and locks.RUN_LOCK in message
    assert not (tmp_path / "cache2" / "neogate" / NEOGATE_REVISION / victim).exists()
    # a cached file changed in place is refused the same way
    cached = tmp_path / "cache" / "neogate" / NEOGATE_REVISION / victim
    cached.write_bytes(bytes(body))
    with hub_at(NEOGATE_REVISION) as server, pytest.raises(GenderMTError) as caught:
        first_use(tmp_path, server)
    message = str(caught.value)
    assert f"cached file {cached}" in message and changed in message
    assert sha(TOFU_FILES[victim]) in message and "\n" not in message


def test_two_locks_that_disagree_stop_naming_the_file_and_both_locks(tmp_path):
    with hub_at(NEOGATE_REVISION) as server:
        first_use(tmp_path, server)
        cache_lock = tmp_path / "cache" / "neogate" / f"{NEOGATE_REVISION}.lock.json"
        data = json.loads(cache_lock.read_text())
        data["datasets"]["neogate"]["files"][0]["sha256"] = "f" * 64
        cache_lock.write_text(json.dumps(data))
        with pytest.raises(GenderMTError) as caught:
            first_use(tmp_path, server)
    message = str(caught.value)
    assert "Neo-GATE.tsv" in message and "f" * 64 in message
    assert str(cache_lock) in message and locks.RUN_LOCK in message and "\n" not in message


def test_a_users_revision_is_fetched_and_locked_at_that_revision(tmp_path):
    newer = "fedcba9876543210fedcba9876543210fedcba98"
    with hub_at(newer) as server:
        cfg, (record,) = first_use(tmp_path, server, revisions={"neogate": newer})
        assert sorted(server.requests) == sorted(
            f"/datasets/{REPO}/resolve/{newer}/{name}" for name in TOFU_FILES)
    assert record["commit"] == newer and record["hashes"] == "trust on first use"
    assert cfg["benchmarks"]["neogate"]["data"]["test"] == str(
        tmp_path / "cache" / "neogate" / newer / "Neo-GATE.tsv")
    entry = json.loads((tmp_path / "results" / "r" / locks.RUN_LOCK).read_text())
    assert entry["datasets"]["neogate"]["revision"] == newer


def test_fairtranslate_at_the_users_revision_is_fetched_and_locked(tmp_path):
    manifest = datasets.manifests()["fairtranslate"]
    shard = manifest.files[0]
    sample = tmp_path / "train.parquet"
    sample.write_bytes(b"PAR1 a stand-in for the shard PAR1")
    commit = "00112233445566778899aabbccddeeff00112233"
    ref = f"dataset:fairtranslate/{shard.file}"
    with HubServer({(manifest.repository, commit, shard.path): sample}) as server:
        cfg = {"benchmarks": {"fairtranslate": {"data": {"path": ref}}}, "systems": {},
               "data_sources": {"cache": str(tmp_path / "cache"), "retry_wait": 0.05,
                                "hub_endpoint": server.endpoint,
                                "revisions": {"fairtranslate": commit}}}
        (record,) = datasets.resolve_config(cfg, Hasher(None), run_dir=tmp_path / "results")
        assert list(server.requests) == [
            f"/datasets/{manifest.repository}/resolve/{commit}/{shard.path}"]
    assert record["hashes"] == "trust on first use" and record["commit"] == commit
    assert record["files"][0]["sha256"] == sha(sample)
    entry = json.loads((tmp_path / "results" / locks.RUN_LOCK).read_text())
    assert entry["datasets"]["fairtranslate"]["files"][0]["sha256"] == sha(sample)


def test_the_run_summary_and_the_start_up_line_say_the_hashes_were_taken_on_first_use(
        tmp_path, monkeypatch, capsys):
    from gendermt.workflow.run_record import summary
    from gendermt.workflow.startup import checked_data

    monkeypatch.chdir(tmp_path)  # results/<run>/ under the working directory, as a run's
    with hub_at(NEOGATE_REVISION) as server:
        def start() -> tuple[list[dict], str]:
            cfg = {**config(tmp_path / "cache", hub_endpoint=server.endpoint), "run": "r"}
            found = checked_data(cfg, Hasher(None), main_process=True)
            return found, capsys.readouterr().err
        found, err = start()
        assert "2 hashes taken now, at its first use (trust on first use), into " \
               f"{Path('results') / 'r' / locks.RUN_LOCK}" in err
        _, err = start()
        assert "checked against the hashes of its first use (trust on first use)" in err
    (entry,) = summary("r", [], {"benchmarks": {}, "systems": {}}, tmp_path, Hasher(None),
                       found)["datasets"]
    assert entry["hashes"] == "trust on first use"
    assert entry["lock"] == str(Path("results") / "r" / locks.RUN_LOCK)
    assert "obtained" not in entry and "folder" not in entry


def test_a_pinned_manifest_writes_no_lock(tmp_path):
    manifest = pinned_manifest(tmp_path)
    with hub() as server:
        cfg = config(tmp_path / "cache", hub_endpoint=server.endpoint)
        (record,) = datasets.resolve_config(cfg, Hasher(None), {"neogate": manifest},
                                            run_dir=tmp_path / "results")
    assert "hashes" not in record and "lock" not in record
    assert not (tmp_path / "results").exists()
    assert not list((tmp_path / "cache").rglob("*.lock.json"))


def test_a_local_copy_at_first_use_is_locked_and_a_different_copy_later_refused(tmp_path):
    mirror = tmp_path / "mirror" / "neogate"
    mirror.mkdir(parents=True)
    for name, src in TOFU_FILES.items():
        (mirror / name).write_bytes(src.read_bytes())
    endpoint = f"http://127.0.0.1:{free_port()}"  # nothing listens: no network is used
    run_dir = tmp_path / "results" / "r"

    def start(cache: str) -> list[dict]:
        cfg = config(tmp_path / cache, hub_endpoint=endpoint, local=str(tmp_path / "mirror"))
        return datasets.resolve_config(cfg, Hasher(None), run_dir=run_dir)

    (record,) = start("cache")
    assert record["obtained"] == {"cached": 0, "local": 2, "downloaded": 0, "first_use": 2}
    assert [f["sha256"] for f in record["files"]] == [sha(p) for p in TOFU_FILES.values()]
    # the copy changes; a fresh cache takes it from there: refused against the run's lock
    (mirror / "Neo-GATE.tsv").write_bytes(b"another file\n")
    with pytest.raises(GenderMTError) as caught:
        start("cache2")
    message = str(caught.value)
    assert f"local copy {mirror / 'Neo-GATE.tsv'}" in message
    assert sha(TOFU_FILES["Neo-GATE.tsv"]) in message and "\n" not in message
