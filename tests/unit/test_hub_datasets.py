"""Hugging Face Hub data sets (FairTranslate, Neo-GATE): declared in manifests, fetched through
the real ``huggingface_hub`` at a pinned revision into the data cache, verified by sha256
(gendermt.data.datasets), against a loopback server standing in for the Hub (``hub_endpoint``).

The shipped Hub manifests are not pinned (no Hub access where they were written): naming them
must stop with one line, never run on unchecked files. The fetching itself is tested with a
manifest pinned here to files the test serves.
"""

from __future__ import annotations

import hashlib
import json
import socket
from pathlib import Path

import pytest

from gendermt.config.errors import GenderMTError
from gendermt.data import datasets
from gendermt.data.sources import Hasher

from ..conftest import ROOT
from ..data_server import HubServer

pytest.importorskip("huggingface_hub", reason="needs the hub extra: pip install -e '.[hub]'")

REPO = "FBK-MT/Neo-GATE"
REVISION = "0123456789abcdef0123456789abcdef01234567"
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


def test_the_shipped_hub_manifests_are_declared_and_say_they_are_not_pinned():
    found = datasets.manifests()
    assert {found[n].repository for n in ("fairtranslate", "neogate")} == {
        "Fannyjrd/FairTranslate_fr", "FBK-MT/Neo-GATE"}
    for name in ("fairtranslate", "neogate"):
        manifest = found[name]
        assert manifest.host == "hub" and manifest.unverified
        # no invented hash: every unknown one is left empty
        assert all(f.sha256 == "" and f.size == -1 for f in manifest.files)
        assert manifest.commit == ""


@pytest.mark.parametrize("name,ref", [
    ("neogate", "dataset:neogate/Neo-GATE.tsv"),
    ("fairtranslate", "dataset:fairtranslate/data/train-00000-of-00001.parquet")])
def test_an_unpinned_hub_data_set_stops_in_one_line_even_with_a_local_copy(tmp_path, name,
                                                                           ref):
    manifest = datasets.manifests()[name]
    local = tmp_path / "local"
    (local / name / manifest.files[0].file).parent.mkdir(parents=True)
    (local / name / manifest.files[0].file).write_bytes(b"anything")
    cfg = {"benchmarks": {name: {"data": {"path": ref}}}, "systems": {},
           "data_sources": {"cache": str(tmp_path / "cache"), "local": str(local)}}
    with pytest.raises(GenderMTError) as caught:
        datasets.resolve_config(cfg, Hasher(None))
    message = str(caught.value)
    assert "\n" not in message
    assert manifest.repository in message and "revision" in message
    assert manifest.declared_in in message and "cannot be used" in message
    assert not (tmp_path / "cache").exists()


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
