"""Issue 51 item 13: files handed to the ``gendermt`` commands are read with a bound
(``GENDERMT_MAX_INPUT_BYTES``, default 2 GiB): ``/dev/zero`` or a file over the bound ends in
one line and exit 2, never a MemoryError traceback or a process that grows without end."""

import io
import os
import subprocess
import sys

import pytest

from gendermt.core.errors import GenderMTError
from gendermt.data import textfiles

from ..conftest import ROOT

ENV = "GENDERMT_MAX_INPUT_BYTES"


def run_cli(*args, limit=None, stdin=None):
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    if limit is not None:
        env[ENV] = str(limit)
    return subprocess.run([sys.executable, "-m", "gendermt", *map(str, args)],
                          capture_output=True, cwd=ROOT, env=env, timeout=120, input=stdin)


def assert_one_line(proc, *words):
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 2, err[-2000:]
    lines = err.strip().splitlines()
    assert len(lines) == 1, err[-2000:]
    for word in words:
        assert word in lines[0], lines[0]


@pytest.fixture
def ref(tmp_path):
    path = tmp_path / "ref.txt"
    path.write_text("a\n", encoding="utf-8")
    return path


def test_dev_zero_as_hyp_is_one_line(ref):
    proc = run_cli("score", "mt", "--hyp", "/dev/zero", "--ref", ref)
    assert_one_line(proc, "--hyp", "/dev/zero", "not a regular file")


def test_dev_zero_as_a_data_file_is_one_line(ref):
    proc = run_cli("score", "winomt", "--data", "/dev/zero", "--hyp", ref, "--lang", "de")
    assert_one_line(proc, "--data", "/dev/zero")


def test_a_100_mb_input_over_the_limit_is_one_line(tmp_path, ref):
    big = tmp_path / "big.txt"
    with big.open("wb") as fh:  # 100 MB (sparse: refused by its size, before any read)
        fh.truncate(100 * 1024 * 1024)
    proc = run_cli("score", "mt", "--hyp", big, "--ref", ref, limit=10_000_000)
    assert_one_line(proc, "--hyp", "big.txt", "10000000 bytes", ENV)


def test_stdin_over_the_limit_is_one_line(ref):
    proc = run_cli("score", "mt", "--hyp", "-", "--ref", ref, limit=1000, stdin=b"y\n" * 5000)
    assert_one_line(proc, "standard input", "1000 bytes", ENV)


def test_a_bad_limit_is_one_line(ref):
    proc = run_cli("score", "mt", "--hyp", ref, "--ref", ref, limit="lots")
    assert_one_line(proc, ENV, "lots")


def test_the_reader_is_bounded_even_on_a_stream(monkeypatch):
    monkeypatch.setenv(ENV, "100")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"z" * 101)))
    with pytest.raises(GenderMTError, match="more than 100 bytes"):
        textfiles.read_text("-", "--hyp")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"z" * 100)))
    assert textfiles.read_text("-", "--hyp") == "z" * 100
