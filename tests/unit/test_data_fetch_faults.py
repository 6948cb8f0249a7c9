"""Fetching a declared data set when the mirror misbehaves (issue 51, items 1, 5 and 6):
a slow mirror meets a deadline and a minimum rate, with progress lines and no staging file
left behind; each failure says what happened (an HTTP status, a body too long, the network
down) and only a failed network gets the no-network advice; a local copy is copied into the
cache, never hard-linked. Against a loopback server (tests/data_server.py) serving a small
data set of the test's own, so nothing here needs ../shared/data.
"""

from __future__ import annotations

import hashlib
import os
import re
import socket
import subprocess
import time
from pathlib import Path

import pytest
import yaml

from gendermt.config.checks import check_schema
from gendermt.core import registry
from gendermt.core.errors import GenderMTError
from gendermt.data import datasets
from gendermt.data.sources import Hasher

from ..conftest import ROOT
from ..data_server import DataServer

NAME = "toy"
BODY = bytes(range(256)) * 4  # 1,024 bytes: 16 s at 64 B/s


def toy(served: Path, body: bytes = BODY, name: str = "a/file.bin") -> datasets.Manifest:
    """A one-file data set served from ``served/toy/`` (and declared with that file's hash)."""
    (served / NAME / name).parent.mkdir(parents=True, exist_ok=True)
    (served / NAME / name).write_bytes(body)
    data_file = datasets.DataFile(name, f"up/{name}", len(body),
                                  hashlib.sha256(body).hexdigest())
    return datasets.Manifest(NAME, "a toy", "MIT", "owner/toy", "0" * 40, (data_file,),
                             "toy/dataset.yaml")


def settings(cache: Path, **sources) -> dict:
    return datasets.settings_of({"data_sources": {"cache": str(cache), "retry_wait": 0.05,
                                                  **sources}})


def partial(cache: Path) -> list[Path]:
    return sorted((cache / ".partial").glob("*")) if (cache / ".partial").exists() else []


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- item 1: a slow mirror ---------------------------------------------------------------
def test_a_slow_mirror_stops_at_the_deadline_with_progress_lines_and_no_staging_file(
        tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(datasets, "PROGRESS_EVERY", 0.5)
    cache = tmp_path / "cache"
    manifest = toy(tmp_path / "served")
    path = f"/{NAME}/a/file.bin"
    with DataServer(tmp_path / "served", always={path: "slow"}, rate=64) as server:
        started = time.monotonic()
        with pytest.raises(GenderMTError) as caught:
            datasets.materialise(manifest, settings(cache, mirror=server.mirror, deadline=2,
                                                    min_rate=0), Hasher(None))
        took = time.monotonic() - started
        assert server.requests[path] == 1  # a deadline is not retried
    message = str(caught.value)
    assert "\n" not in message and "data_sources.deadline" in message and path in message
    # stopped before the whole file (16 s at 64 B/s), whatever the machine's load
    assert took < 16, took
    progress = [line for line in capsys.readouterr().err.splitlines() if "of 1,024 bytes" in line]
    assert progress, "no progress line"
    assert len(progress) <= took / 0.5 + 1  # at most one a PROGRESS_EVERY
    got = re.search(r"(\d[\d,]*) of 1,024 bytes .*\d+ B/s", progress[-1])
    assert got and int(got[1].replace(",", "")) < 1024, progress[-1]
    assert partial(cache) == []
    assert not (cache / NAME / manifest.commit / "a/file.bin").exists()


def test_a_mirror_slower_than_the_minimum_rate_is_retried_then_stops(tmp_path, monkeypatch):
    monkeypatch.setattr(datasets, "RATE_WINDOW", 1.0)
    cache = tmp_path / "cache"
    manifest = toy(tmp_path / "served")
    path = f"/{NAME}/a/file.bin"
    with DataServer(tmp_path / "served", always={path: "slow"}, rate=64) as server:
        started = time.monotonic()
        with pytest.raises(GenderMTError, match=r"data_sources\.min_rate") as caught:
            datasets.materialise(manifest, settings(cache, mirror=server.mirror, retries=2,
                                                    min_rate=1000), Hasher(None))
        assert time.monotonic() - started < 8
        assert server.requests[path] == 2  # too slow: retried (a stall may pass)
    assert "\n" not in str(caught.value) and "without network" not in str(caught.value)
    assert partial(cache) == []


def test_an_interrupted_download_leaves_no_staging_file(tmp_path, monkeypatch):
    monkeypatch.setattr(datasets, "PROGRESS_EVERY", 0.3)

    def interrupt(*args) -> None:  # Ctrl-C while the bytes come in
        raise KeyboardInterrupt

    monkeypatch.setattr(datasets, "_report_progress", interrupt)
    cache = tmp_path / "cache"
    manifest = toy(tmp_path / "served")
    served = DataServer(tmp_path / "served", always={f"/{NAME}/a/file.bin": "slow"})
    with served as server, pytest.raises(KeyboardInterrupt):
        datasets.materialise(manifest, settings(cache, mirror=server.mirror), Hasher(None))
    assert partial(cache) == []


def test_a_killed_runs_staging_files_do_not_survive_the_next_run(tmp_path):
    cache = tmp_path / "cache"
    (cache / ".partial").mkdir(parents=True)
    dead = subprocess.Popen(["true"])
    dead.wait()
    left = [cache / ".partial" / f"{socket.gethostname()}-{dead.pid}-0a1b.part",
            cache / ".partial" / "0123456789abcdef0123456789abcdef.part"]  # before pids
    for file in left:
        file.write_bytes(b"")
    old = time.time() - 7200
    os.utime(left[1], (old, old))
    live = cache / ".partial" / f"{socket.gethostname()}-{os.getpid()}-ffff.part"
    live.write_bytes(b"")  # a download in flight in a live process: left alone
    manifest = toy(tmp_path / "served")
    with DataServer(tmp_path / "served") as server:
        _, how = datasets.materialise(manifest, settings(cache, mirror=server.mirror),
                                      Hasher(None))
    assert how["downloaded"] == 1
    assert partial(cache) == [live]


# --- item 5: errors that say what happened -----------------------------------------------
def test_http_404_is_named_and_not_retried(tmp_path):
    cache = tmp_path / "cache"
    manifest = toy(tmp_path / "served")
    (tmp_path / "served" / NAME / "a/file.bin").unlink()
    with DataServer(tmp_path / "served") as server:
        with pytest.raises(GenderMTError) as caught:
            datasets.materialise(manifest, settings(cache, mirror=server.mirror, retries=3),
                                 Hasher(None))
        assert server.requests[f"/{NAME}/a/file.bin"] == 1
    message = str(caught.value)
    assert "HTTP 404" in message and "\n" not in message
    assert "without network" not in message and "cut off" not in message
    assert "data_sources.mirror" in message  # what to check
    assert partial(cache) == []


def test_http_503_is_named_and_retried(tmp_path):
    cache = tmp_path / "cache"
    manifest = toy(tmp_path / "served")
    path = f"/{NAME}/a/file.bin"
    with DataServer(tmp_path / "served", faults={path: ["unavailable"]}) as server:
        _, how = datasets.materialise(manifest, settings(cache, mirror=server.mirror),
                                      Hasher(None))
        assert server.requests[path] == 2 and how["downloaded"] == 1
    with DataServer(tmp_path / "served", always={path: "unavailable"}) as server, \
            pytest.raises(GenderMTError, match=r"HTTP 503 .*3 attempts\); try again later"):
        datasets.materialise(manifest, settings(tmp_path / "c2", mirror=server.mirror),
                             Hasher(None))


def test_a_body_longer_than_declared_is_too_long_not_cut_off(tmp_path):
    cache = tmp_path / "cache"
    manifest = toy(tmp_path / "served")
    path = f"/{NAME}/a/file.bin"
    with DataServer(tmp_path / "served", always={path: "long"}) as server:
        with pytest.raises(GenderMTError) as caught:
            datasets.materialise(manifest, settings(cache, mirror=server.mirror, retries=3),
                                 Hasher(None))
        assert server.requests[path] == 1
    message = str(caught.value)
    assert "too long" in message and "cut off" not in message
    assert "without network" not in message and "\n" not in message
    assert partial(cache) == []


def test_the_no_network_advice_only_when_the_network_failed(tmp_path):
    manifest = toy(tmp_path / "served")
    down = f"http://127.0.0.1:{free_port()}/{{dataset}}/{{file}}"
    with pytest.raises(GenderMTError) as caught:
        datasets.materialise(manifest, settings(tmp_path / "c1", mirror=down, retries=1),
                             Hasher(None))
    assert "without network" in str(caught.value)
    served = DataServer(tmp_path / "served", always={f"/{NAME}/a/file.bin": "tamper"})
    with served as server, pytest.raises(GenderMTError) as caught:
        datasets.materialise(manifest, settings(tmp_path / "c2", mirror=server.mirror),
                             Hasher(None))
    assert "sha256" in str(caught.value) and "without network" not in str(caught.value)


@pytest.mark.parametrize("mirror, named", [
    ("http://m/{dataset}/{nope}", "{nope}"),
    ("http://m/{0}/{file}", "{0}"),
    ("http://m/{file.__class__}", "{file.__class__}"),
    ("http://m/{}", "{}"),
])
def test_an_unknown_mirror_placeholder_is_named_in_one_line(tmp_path, mirror, named):
    manifest = toy(tmp_path / "served")
    with pytest.raises(GenderMTError) as caught:
        datasets.materialise(manifest, settings(tmp_path / "cache", mirror=mirror),
                             Hasher(None))
    message = str(caught.value)
    assert "\n" not in message and message.startswith("data_sources.mirror")
    assert named in message
    assert "{repo}, {commit}, {path}, {dataset}, {file}" in message


@pytest.mark.parametrize("key, value", [("retry_wait", 3600), ("retry_wait", -1),
                                        ("retries", 1000), ("deadline", 0),
                                        ("min_rate", -5), ("deadline", "soon")])
def test_the_schema_bounds_the_data_sources_settings(key, value):
    schema = registry.config_schema(ROOT / "workflow/schemas/config.schema.yaml")
    config = yaml.safe_load((ROOT / "config/config.yaml").read_text(encoding="utf-8"))
    with pytest.raises(GenderMTError, match=f"data_sources.{key}"):
        check_schema({**config, "data_sources": {key: value}}, schema)
    check_schema({**config, "data_sources": {"retry_wait": 60, "deadline": 30,
                                             "min_rate": 0}}, schema)


def test_defaults_are_the_schemas():
    schema = registry.config_schema(ROOT / "workflow/schemas/config.schema.yaml")
    properties = schema["properties"]["data_sources"]["properties"]
    assert {k: properties[k].get("default") for k in datasets.DEFAULTS} == datasets.DEFAULTS


ADVICE = re.compile(r"--config\s+(?:'([^']*)'|(\S+))")


def test_no_message_or_page_suggests_a_config_option_snakemake_rejects(tmp_path):
    """Snakemake 9 takes `--config name=value` only for a plain name: the advice must be a
    form it accepts (a dotted name such as data_sources.local is refused)."""
    from snakemake.cli import parse_config

    manifest = toy(tmp_path / "served")
    down = f"http://127.0.0.1:{free_port()}/{{dataset}}/{{file}}"
    with pytest.raises(GenderMTError) as caught:
        datasets.materialise(manifest, settings(tmp_path / "cache", mirror=down, retries=1),
                             Hasher(None))
    advised = [a or b for a, b in ADVICE.findall(str(caught.value))]
    assert advised, str(caught.value)
    for entry in advised:
        parsed = parse_config([entry])  # what the shell hands Snakemake
        assert parsed["data_sources"] == {"local": "../shared/data"}, entry
    # and no message or page anywhere suggests the dotted form Snakemake refuses
    texts = {p: p.read_text(encoding="utf-8") for p in [*(ROOT / "src").rglob("*.py"),
                                                       *(ROOT / "docs").rglob("*.md"),
                                                       ROOT / "README.md"]}
    dotted = re.compile(r"--config\s+'?[A-Za-z_][\w-]*\.\w")
    assert not [str(p) for p, text in texts.items() if dotted.search(text)]
    with pytest.raises(ValueError):  # the form that was advised: refused by Snakemake 9
        parse_config(["data_sources.local=../shared/data"])


# --- item 6: a local copy is copied, never linked ----------------------------------------
def test_a_local_copy_is_copied_so_neither_write_reaches_the_other(tmp_path):
    local = tmp_path / "local"
    manifest = toy(local)
    original = local / NAME / "a/file.bin"
    cache = tmp_path / "cache"
    down = f"http://127.0.0.1:{free_port()}/{{dataset}}/{{file}}"
    _, how = datasets.materialise(manifest, settings(cache, local=str(local), mirror=down),
                                  Hasher(None))
    assert how["local"] == 1
    cached = cache / NAME / manifest.commit / "a/file.bin"
    assert cached.stat().st_nlink == 1 and original.stat().st_nlink == 1
    with open(cached, "r+b") as handle:  # written through the cache...
        handle.write(b"X")
    assert original.read_bytes() == BODY  # ...the local copy is untouched
    cached.write_bytes(BODY)
    with open(original, "r+b") as handle:  # and the other way round
        handle.write(b"Y")
    assert cached.read_bytes() == BODY


def test_a_hard_link_an_earlier_version_made_is_replaced_by_a_copy(tmp_path):
    local = tmp_path / "local"
    manifest = toy(local)
    original = local / NAME / "a/file.bin"
    cached = tmp_path / "cache" / NAME / manifest.commit / "a/file.bin"
    cached.parent.mkdir(parents=True)
    os.link(original, cached)  # what the cache held before
    _, how = datasets.materialise(manifest, settings(tmp_path / "cache", local=str(local)),
                                  Hasher(None))
    assert how["cached"] == 1
    assert cached.stat().st_nlink == 1 and cached.read_bytes() == BODY
    with open(original, "r+b") as handle:
        handle.write(b"Z")
    assert cached.read_bytes() == BODY
