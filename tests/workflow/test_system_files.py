"""Every file a system needs is checked at start-up (gendermt.workflow.system_files), no job reads a
results file that no planned job makes (gendermt.workflow.dag_guard), and `gendermt stored template`
writes the files a stored system reads (issue 33, "Bring your own model" with a missing file).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pandas as pd
import pytest
import yaml

from gendermt.core.errors import GenderMTError
from gendermt.translation.backends.stored import Stored, write_template
from gendermt.workflow.system_files import check_system_files, is_local_model, system_files

from ..conftest import ROOT
from ..workflow_support import RUN_TIMEOUT, snakemake_exe

STORED = {"backend": "stored", "path": "outputs/{benchmark}/{prompt}.txt"}


def _config(systems, benchmarks):
    return {"systems": systems, "benchmarks": benchmarks}


def _runs(config):
    return {b: [{"system": s, "prompt": p} for s in spec["systems"] for p in spec["prompts"]]
            for b, spec in config["benchmarks"].items()}


def test_a_stored_system_needs_one_file_per_benchmark_and_prompt(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    config = _config({"mine": STORED, "oracle": {"backend": "reference-oracle",
                                                  "reference": "reference"}},
                     {"fairtranslate": {"systems": ["oracle", "mine"],
                                        "prompts": ["baseline", "moral"]},
                      "conga": {"systems": ["mine"], "prompts": ["baseline"]}})
    files = system_files(config, _runs(config))
    assert [(f.system, f.key, f.path) for f in files] == [
        ("mine", "systems.mine.path", "outputs/fairtranslate/baseline.txt"),
        ("mine", "systems.mine.path", "outputs/fairtranslate/moral.txt"),
        ("mine", "systems.mine.path", "outputs/conga/baseline.txt")]
    with pytest.raises(GenderMTError) as caught:
        check_system_files(config, _runs(config))
    message = str(caught.value)
    assert len(message.splitlines()) == 1  # one line per system
    assert message.startswith("system mine: systems.mine.path: stored outputs not found: "
                              "outputs/fairtranslate/baseline.txt (fairtranslate, prompt "
                              "baseline), outputs/fairtranslate/moral.txt")
    for path in ("outputs/fairtranslate/baseline.txt", "outputs/fairtranslate/moral.txt"):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("x\n")
    with pytest.raises(GenderMTError, match=r"^system mine: .*outputs/conga/baseline.txt "
                                            r"\(conga, prompt baseline\) \(write"):
        check_system_files(config, _runs(config))
    (tmp_path / "outputs/conga").mkdir()
    (tmp_path / "outputs/conga/baseline.txt").write_text("x\n")
    check_system_files(config, _runs(config))


def test_a_per_benchmark_override_is_named_by_its_own_key(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    config = _config({"mine": STORED},
                     {"conga": {"systems": ["mine"], "prompts": ["baseline"],
                                "decoding": {"mine": {"path": "elsewhere/{prompt}.tsv",
                                                      "format": "table"}}}})
    with pytest.raises(GenderMTError, match=r"benchmarks.conga.decoding.mine.path: stored "
                                            r"outputs not found: elsewhere/baseline.tsv"):
        check_system_files(config, _runs(config))


def test_model_files_and_folders_but_not_hub_ids(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert not is_local_model("meta-llama/Llama-3.1-8B-Instruct")
    assert is_local_model("/models/x") and is_local_model("./x") and is_local_model("a/b/c")
    config = _config({
        "gguf": {"backend": "hf-causal", "model": "/nowhere/model-Q4.gguf"},
        "folder": {"backend": "hf-seq2seq", "model": "./models/opus"},
        "hub": {"backend": "hf-causal", "model": "HuggingFaceTB/SmolLM2-135M-Instruct"},
        "packaged": {"backend": "hf-causal", "model": "no_such_package/model.gguf"}},
        {"fairtranslate": {"systems": ["gguf", "folder", "hub", "packaged"],
                           "prompts": ["baseline"]}})
    with pytest.raises(GenderMTError) as caught:
        check_system_files(config, _runs(config))
    lines = str(caught.value).splitlines()
    assert [line.split(" (")[0] for line in lines] == [
        "system gguf: systems.gguf.model: GGUF file not found: /nowhere/model-Q4.gguf",
        "system folder: systems.folder.model: model folder not found: ./models/opus",
        "system packaged: systems.packaged.model: GGUF file not found: "
        "no_such_package/model.gguf"]
    (tmp_path / "models/opus").mkdir(parents=True)
    assert len(str(pytest.raises(GenderMTError, check_system_files, config,
                                 _runs(config)).value).splitlines()) == 2


def test_the_shipped_default_needs_no_file_it_lacks(monkeypatch):
    monkeypatch.chdir(ROOT)
    config = yaml.safe_load((ROOT / "config/config.yaml").read_text("utf-8"))
    runs = {b: [{"system": s, "prompt": p} for s in spec["systems"]
                for p in spec.get("system_prompts", {}).get(s, spec["prompts"])]
            for b, spec in config["benchmarks"].items() if b not in ("gambit", "neogate")}
    runs["gambit"] = [{"system": s, "prompt": lang} for s in config["benchmarks"]["gambit"]
                      ["systems"] for lang in ("fr", "el")]
    files = system_files(config, runs)
    assert any(f.kind == "stored outputs" for f in files)
    assert any(f.kind == "GGUF file" for f in files)  # smollm2's, from its wheel
    check_system_files(config, runs)


# --- the template ------------------------------------------------------------------------
def _data():
    return pd.DataFrame({"item_id": ["b-2", "a-1", "c-3"],
                         "source": ["The nurse\tcame.", "The doctor left.", "They stayed."]})


def test_the_template_follows_the_data_order_and_is_read_back(tmp_path):
    paths = write_template(_data(), "fairtranslate", ["baseline", "moral"], tmp_path)
    assert [p.relative_to(tmp_path).as_posix() for p in paths] == [
        "fairtranslate/baseline.tsv", "fairtranslate/moral.tsv"]
    lines = paths[0].read_text("utf-8").splitlines()
    assert lines == ["item_id\tsource\thypothesis", "b-2\tThe nurse came.\t",
                     "a-1\tThe doctor left.\t", "c-3\tThey stayed.\t"]
    # filled in, it is what a `stored` system with format: table reads
    filled = "\n".join([lines[0]] + [line + "Traduction." for line in lines[1:]]) + "\n"
    paths[0].write_text(filled, encoding="utf-8")
    backend = Stored({"backend": "stored", "format": "table", "path": str(paths[0])},
                     _data())
    assert backend.outputs == {"b-2": "Traduction.", "a-1": "Traduction.",
                               "c-3": "Traduction."}
    with pytest.raises(GenderMTError, match="never overwrites"):
        write_template(_data(), "fairtranslate", ["moral"], tmp_path)


def test_the_template_command(tmp_path):
    results = tmp_path / "results" / "default"
    (results / "fairtranslate" / "inputs").mkdir(parents=True)
    _data().to_parquet(results / "fairtranslate" / "data.parquet")
    for prompt in ("moral", "baseline"):
        (results / "fairtranslate" / "inputs" / f"{prompt}.jsonl").write_text("{}\n")

    def run(*args):
        return subprocess.run([sys.executable, "-m", "gendermt", "stored", "template", *args],
                              capture_output=True, text=True, timeout=RUN_TIMEOUT,
                              env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})

    proc = run("--benchmark", "fairtranslate", "--out", str(tmp_path / "mine"),
               "--results", str(results))
    assert proc.returncode == 0, proc.stderr
    printed = json.loads(proc.stdout)
    assert printed["items"] == 3 and [p.rsplit("/", 1)[1] for p in printed["files"]] == [
        "baseline.tsv", "moral.tsv"]
    assert printed["system"] == {"backend": "stored", "format": "table",
                                 "path": f"{tmp_path / 'mine'}/{{benchmark}}/{{prompt}}.tsv"}
    proc = run("--benchmark", "conga", "--out", str(tmp_path / "x"), "--results", str(results))
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "conga/data.parquet does not exist" in proc.stderr


# --- the guard: no results file used as a source ------------------------------------------
GUARDED = """
import sys
sys.path.insert(0, {src!r})
from gendermt.workflow.dag_guard import check_planned_inputs

rule all:
    input: "results/r/table.csv"

rule translate:
    input: "outputs/mine.txt"
    output: "results/r/raw.txt"
    shell: "cp {{input}} {{output}}"

rule table:
    input: "results/r/raw.txt"
    output: "results/r/table.csv"
    shell: "cp {{input}} {{output}}"
"""


@pytest.mark.parametrize("guarded", [False, True])
def test_an_old_output_is_never_taken_as_a_source_file(tmp_path, guarded):
    """The translate job cannot be planned (its input is missing) but its old output is on
    disk: Snakemake builds the table from it; with the guard, the run stops first."""
    text = GUARDED.format(src=str(ROOT / "src"))
    if guarded:
        text += "\nonstart:\n    check_planned_inputs(workflow.dag, 'results/r')\n"
    (tmp_path / "Snakefile").write_text(text)
    (tmp_path / "results/r").mkdir(parents=True)
    (tmp_path / "results/r/raw.txt").write_text("an earlier run's output\n")
    proc = subprocess.run([snakemake_exe(), "--cores", "1"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=RUN_TIMEOUT)
    if not guarded:
        assert proc.returncode == 0  # Snakemake's own behaviour: the old file is used
        assert (tmp_path / "results/r/table.csv").read_text() == "an earlier run's output\n"
        return
    assert proc.returncode != 0
    assert not (tmp_path / "results/r/table.csv").exists()
    assert ("results of an earlier run would be used as source files, because the jobs that "
            "make them cannot be planned") in proc.stdout + proc.stderr
    assert "results/r/raw.txt (read by table)" in proc.stdout + proc.stderr
