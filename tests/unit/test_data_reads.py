"""A data stage builds only from bytes it verified as it read them (issue 51, item 2).

Start-up checks every data file against its manifest; a file changed after that (through a
hard link, by hand) must stop the data stage that reads it, and data.json must record the
hash of the bytes the stage read, taken as it read them (one read, not a second pass). The
stages' own scripts run here, with the `snakemake` object they are given in a job.
"""

from __future__ import annotations

import builtins
import hashlib
import io
import json
import os
import runpy
from pathlib import Path
from types import SimpleNamespace

import pytest

from gendermt.core.errors import GenderMTError
from gendermt.data import datasets, reads
from gendermt.data.sources import Hasher, identity

from ..conftest import ROOT

SCRIPTS = ROOT / "src" / "gendermt" / "benchmarks"
ROWS = ("female\t1\tThe developer argued with the designer because she did not like it.\t"
        "developer\nmale\t5\tThe developer argued with the designer because his idea "
        "failed.\tdesigner\n")


def planned(tmp_path: Path) -> tuple[str, SimpleNamespace]:
    """A WinoMT file declared in a toy manifest, put in the data cache from a local copy by
    start-up (resolve_config), and the data stage's params as the workflow plans them."""
    body = ROWS.encode()
    (tmp_path / "local" / "toy").mkdir(parents=True)
    (tmp_path / "local" / "toy" / "en.txt").write_bytes(body)
    manifest = datasets.Manifest(
        "toy", "a toy", "MIT", "owner/toy", "1" * 40,
        (datasets.DataFile("en.txt", "data/en.txt", len(body),
                           hashlib.sha256(body).hexdigest()),), "toy/dataset.yaml")
    config = {"benchmarks": {"winomt": {"data": {"path": "dataset:toy/en.txt"}}},
              "systems": {}, "data_sources": {"cache": str(tmp_path / "cache"),
                                              "local": str(tmp_path / "local")}}
    records = datasets.resolve_config(config, Hasher(None), known={"toy": manifest})
    path = config["benchmarks"]["winomt"]["data"]["path"]
    params = SimpleNamespace(source={"path": path, "pro": None, "anti": None},
                             data_sources=identity([path], Hasher(None)),
                             datasets=datasets.read_by([path], records))
    return path, params


def run_data_stage(tmp_path: Path, params: SimpleNamespace) -> Path:
    """WinoMT's data stage script, as Snakemake runs it; its data.json."""
    out = tmp_path / "results"
    job = SimpleNamespace(params=params, log=[str(tmp_path / "data.log")],
                          output=SimpleNamespace(data=str(out / "data.parquet"),
                                                 provenance=str(out / "data.json")))
    runpy.run_path(str(SCRIPTS / "winomt" / "scripts" / "data.py"),
                   init_globals={"snakemake": job})
    return out / "data.json"


def test_a_cached_file_changed_after_start_up_stops_the_data_stage(tmp_path):
    path, params = planned(tmp_path)
    expected = params.datasets[0]["files"][0]["sha256"]
    changed = Path(path).read_bytes().replace(b"developer argued", b"developer ARGUED")
    Path(path).write_bytes(changed)  # between the start-up check and the job
    with pytest.raises(GenderMTError) as caught:
        run_data_stage(tmp_path, params)
    message = str(caught.value)
    assert "\n" not in message
    assert path in message and expected in message
    assert hashlib.sha256(changed).hexdigest() in message
    assert not (tmp_path / "results" / "data.parquet").exists()


def test_data_json_records_the_hash_of_the_bytes_read_in_one_read(tmp_path, monkeypatch):
    path, params = planned(tmp_path)
    opened: list[str] = []
    real_open, real_io_open = builtins.open, io.open

    def counting(opener):
        def open_(file, *args, **kwargs):
            if isinstance(file, (str, os.PathLike)) and os.path.abspath(file) == \
                    os.path.abspath(path):
                opened.append(str(file))
            return opener(file, *args, **kwargs)
        return open_

    monkeypatch.setattr(builtins, "open", counting(real_open))
    monkeypatch.setattr(io, "open", counting(real_io_open))
    provenance = json.loads(run_data_stage(tmp_path, params).read_text(encoding="utf-8"))
    monkeypatch.undo()
    read = hashlib.sha256(Path(path).read_bytes()).hexdigest()
    assert len(opened) == 1, opened  # hashed as it was read: no second pass
    (recorded,) = provenance["datasets"]
    assert recorded["files"] == [{"file": "en.txt", "path": "data/en.txt",
                                  "size": len(ROWS.encode()), "sha256": read}]
    assert provenance["files"]["data"]["sha256"] == read  # the stage's own record too


def test_the_check_also_holds_a_file_to_its_planned_hash():
    """A file that is no declared data set is held to the hash its params were planned
    with (a changed source would otherwise be built from without rerunning its stage)."""
    ledger = reads.Ledger({os.path.abspath("x.txt"): ("0" * 64, "its hash at start-up")})
    with pytest.raises(GenderMTError, match=r"x\.txt: sha256 [0-9a-f]{64}, expected 0{64}"):
        ledger.note("x.txt", b"other bytes")
