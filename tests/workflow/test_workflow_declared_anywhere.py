"""Declared benchmarks as a newcomer uses them (issue 64): the declared page's example, its
config and command as docs/declared-benchmarks.md writes them, runs to the report with no
packaged benchmark beside it, listing the benchmark's files as its data sources; and a
benchmark kept outside the project (`benchmarks.<name>.file`) runs the same way."""

from __future__ import annotations

import json
import re
import shlex

import pytest
import yaml

from ..benchmarks.declared.test_declared_benchmarks import TSV, TSV_SPEC
from ..conftest import ROOT
from ..workflow_support import RUN_TIMEOUT, copy_project, output_of, snakemake

pytestmark = pytest.mark.workflow

PAGE = ROOT / "docs" / "declared-benchmarks.md"
SAMPLE = "resources/mt-geneval/data/sentences/test"  # the example's data (its file's data.root)


def page_example() -> tuple[str, dict, str]:
    """The sample config's file name, the config and the command, as the page gives them."""
    text = PAGE.read_text(encoding="utf-8")
    match = re.search(r"with the offline systems, a config of\s+its own, `([^`]+)`.*?"
                      r"```yaml\n(.*?)```\s*```bash\n(.*?)```", text, re.S)
    assert match, f"{PAGE}: no sample config and command after 'with the offline systems'"
    return match[1], yaml.safe_load(match[2]), match[3].strip()


def run_to_the_report(project, command: str):
    args = shlex.split(command)
    assert args[0] == "snakemake"
    return snakemake(project, *args[1:], timeout=RUN_TIMEOUT)


def data_sources(project, run: str) -> str:
    """The "Data sources" table of the run's run.md."""
    text = (project / f"results/{run}/report/run.md").read_text(encoding="utf-8")
    return text.split("## Data sources", 1)[1].split("\n## ", 1)[0]


def test_the_pages_example_runs_to_the_report(tmp_path):
    name, config, command = page_example()
    assert list(config["benchmarks"]) == ["mt-geneval-counterfactual"]  # declared only
    project = copy_project(tmp_path / "project")
    (project / name).write_text(yaml.safe_dump(config), encoding="utf-8")
    proc = run_to_the_report(project, command)
    assert proc.returncode == 0, output_of(proc)[-4000:]
    run = config["run"]
    front = (project / f"results/{run}/report/front.html").read_text(encoding="utf-8")
    table = data_sources(project, run)
    from gendermt.data.sources import sha256_file

    spec = "resources/benchmarks/mt-geneval-counterfactual/benchmark.yaml"
    files = [spec] + [f"{SAMPLE}/geneval-sentences-{gender}-test.en_{lang}.{side}"
                      for lang in ("fr", "de") for gender in ("masculine", "feminine")
                      for side in ("en", lang)]
    for path in files:
        assert path in table and sha256_file(project / path)[:12] in table, path
        assert sha256_file(project / path)[:12] in front, path
    assert "Every data source is a sample" in front
    for table_name in ("accuracy", "quality", "summary"):
        assert (project / f"results/{run}/mt-geneval-counterfactual/tables/"
                          f"{table_name}.csv").stat().st_size > 0
    assert (project / f"results/{run}/scorecard/scorecard.json").is_file()


# the unit tests' TSV benchmark, under a name of its own
BENCHMARK = {**TSV_SPEC, "name": "pronoun-outside",
             "label": "Pronoun test kept outside the project"}
ITEMS = TSV


def outside_config(file: str) -> dict:
    return {"run": "outside",
            "benchmarks": {"pronoun-outside": {"file": file, "prompts": ["plain"],
                                               "systems": ["oracle", "copy-source"]}},
            "systems": {"oracle": {"backend": "reference-oracle", "reference": "reference"},
                        "copy-source": {"backend": "copy-source"}}}


def test_a_benchmark_outside_the_project_runs(tmp_path):
    folder = tmp_path / "elsewhere" / "pronoun-outside"
    folder.mkdir(parents=True)
    (folder / "benchmark.yaml").write_text(yaml.safe_dump(BENCHMARK), encoding="utf-8")
    (folder / "items.tsv").write_text(ITEMS, encoding="utf-8")
    project = copy_project(tmp_path / "project")
    # relative to the working directory, as every path of a config; the folder or its file
    (project / "outside.yaml").write_text(
        yaml.safe_dump(outside_config("../elsewhere/pronoun-outside")), encoding="utf-8")
    proc = snakemake(project, "--cores", "2", "--configfile", "outside.yaml",
                     timeout=RUN_TIMEOUT)
    assert proc.returncode == 0, output_of(proc)[-4000:]
    out = project / "results/outside/pronoun-outside"
    import pandas as pd

    accuracy = pd.read_csv(out / "tables/accuracy.csv").set_index(["system", "lang"])
    assert accuracy.loc[("oracle", "fr"), "accuracy"] == 1.0
    assert accuracy.loc[("oracle", "it"), "n"] == 1
    from gendermt.data.sources import sha256_file

    table = data_sources(project, "outside")
    for path in (folder / "benchmark.yaml", folder / "items.tsv"):
        assert str(path) in table and sha256_file(path)[:12] in table, path
    # its scorecard column, read by its contract's reader in the scorecard's own job
    card = json.loads((project / "results/outside/scorecard/scorecard.json").read_text())
    assert sorted(row["system"] for row in card) == ["copy-source", "oracle"]
    assert all({"gap_fr", "gap_it"} <= set(row["pronoun-outside"]) for row in card)


@pytest.mark.parametrize("given, words", [
    ("../nowhere/pronoun-outside", ["benchmarks.pronoun-outside.file:", "not found"]),
    ("../elsewhere", ["benchmarks.pronoun-outside.file:", "not found"]),
    ("../elsewhere/other-name", ["benchmarks.pronoun-outside.file:",
                                 "not in a folder named pronoun-outside"]),
])
def test_a_missing_outside_file_stops_before_any_job_in_one_line(tmp_path, given, words):
    folder = tmp_path / "elsewhere" / "other-name"
    folder.mkdir(parents=True)
    (folder / "benchmark.yaml").write_text(yaml.safe_dump(BENCHMARK), encoding="utf-8")
    project = copy_project(tmp_path / "project", share_cache=False)
    (project / "outside.yaml").write_text(yaml.safe_dump(outside_config(given)),
                                          encoding="utf-8")
    proc = snakemake(project, "-n", "--cores", "1", "--configfile", "outside.yaml")
    text = output_of(proc)
    assert proc.returncode != 0
    line = next((line for line in text.splitlines() if words[0] in line), "")
    assert all(w in line for w in words), text[-3000:]
    assert "Traceback" not in text
