"""A benchmark declared in one YAML file, through the workflow: MT-GenEval's counterfactual set
declared as data (resources/benchmarks/mt-geneval-counterfactual) and the MT-GenEval package
in one run on the project's sample, the same offline systems (the two reference oracles and
copy-source): the declared benchmark's tables, figure and scorecard column equal the
package's figures on the same outputs."""

from __future__ import annotations

import json

import pandas as pd
import pytest
import yaml

from ..workflow_support import RUN_TIMEOUT, copy_project, output_of, snakemake

pytestmark = pytest.mark.workflow

NAME = "mt-geneval-counterfactual"
RUN = "declared-twin"
LANGS = ["fr", "de"]
SYSTEMS = ["mt-geneval-oracle", "mt-geneval-counterfactual", "copy-source"]
CONFIG = {
    "run": RUN,
    "benchmarks": {
        "mt-geneval": {
            "data": {"root": "resources/mt-geneval", "languages": LANGS, "split": "test",
                     "sets": ["counterfactual"]},
            "templates": "src/gendermt/benchmarks/mt_geneval/prompts/translate.yaml",
            "prompts": ["baseline"],
            "systems": SYSTEMS, "postprocess": ["first_line", "strip_quotes"],
            "metrics": ["bleu", "chrf"]},
        NAME: {"languages": LANGS, "prompts": ["baseline"], "systems": SYSTEMS,
               "postprocess": ["first_line", "strip_quotes"]},
    },
    "systems": {
        "mt-geneval-oracle": {"backend": "reference-oracle", "reference": "reference"},
        "mt-geneval-counterfactual": {"backend": "reference-oracle",
                                      "reference": "counterfactual_reference"},
        "copy-source": {"backend": "copy-source"},
    },
}
TABLES = [f"results/{RUN}/{bench}/tables/{t}.csv" for bench, names in
          (("mt-geneval", ["accuracy", "quality"]),
           (NAME, ["accuracy", "quality", "summary", "finish_reasons"])) for t in names]
TARGETS = [*TABLES, f"results/{RUN}/{NAME}/figures/accuracy.png",
           f"results/{RUN}/scorecard/scorecard.json",
           *(f"results/{RUN}/{bench}/explorer.html" for bench in ("mt-geneval", NAME))]


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    project = copy_project(tmp_path_factory.mktemp("declared") / "project")
    (project / "declared.yaml").write_text(yaml.safe_dump(CONFIG), encoding="utf-8")
    # --configfile last: it takes every word after it
    proc = snakemake(project, "--cores", "2", *TARGETS, "--configfile", "declared.yaml",
                     timeout=RUN_TIMEOUT)
    assert proc.returncode == 0, output_of(proc)[-4000:]
    return project


def table(project, bench: str, name: str) -> pd.DataFrame:
    return pd.read_csv(project / f"results/{RUN}/{bench}/tables/{name}.csv")


KEY = ["system", "prompt", "lang"]


def test_accuracy_equals_the_package(project):
    ours = table(project, NAME, "accuracy").set_index(KEY).sort_index()
    theirs = table(project, "mt-geneval", "accuracy")
    theirs = theirs[theirs["set"] == "counterfactual"].set_index(KEY).sort_index()
    assert len(ours) == len(SYSTEMS) * len(LANGS)
    columns = ["accuracy", "accuracy_masculine", "accuracy_feminine", "accuracy_gap",
               "correct_word_rate", "correct_word_rate_masculine",
               "correct_word_rate_feminine", "n"]
    pd.testing.assert_frame_equal(ours[columns], theirs[columns], check_dtype=False)
    # the figures say something: 1 and 0 for the oracles, a gap for copy-source in German
    assert ours.loc[("mt-geneval-oracle", "baseline", "fr"), "accuracy"] == 1.0
    assert ours.loc[("mt-geneval-counterfactual", "baseline", "fr"), "accuracy"] == 0.0
    assert ours.loc[("copy-source", "baseline", "de"), "accuracy_gap"] > 0


def test_bleu_and_chrf_equal_the_package(project):
    ours = table(project, NAME, "quality")
    theirs = table(project, "mt-geneval", "quality")
    theirs = theirs[theirs["set"] == "counterfactual"].assign(
        reference=lambda f: f["reference"].map({"correct": "own", "counterfactual": "other"}))
    index = ["system", "prompt", "lang", "gender", "metric", "reference"]
    columns = ["score", "n", "signature"]
    ours = ours.set_index(index).sort_index()[columns]
    theirs = theirs.set_index(index).sort_index()[columns]
    assert len(ours) == len(SYSTEMS) * len(LANGS) * 3 * 2 * 2
    pd.testing.assert_frame_equal(ours, theirs, check_dtype=False)


def test_summary_scorecard_and_finish_reasons(project):
    summary = table(project, NAME, "summary").set_index(KEY)
    row = summary.loc[("copy-source", "baseline", "de")]
    assert row["bleu_gap"] == pytest.approx(row["bleu_masculine"] - row["bleu_feminine"])
    # its scorecard column group: the package's (counterfactual set only), figure for figure
    card = json.loads((project / f"results/{RUN}/scorecard/scorecard.json").read_text())
    assert sorted(r["system"] for r in card) == sorted(SYSTEMS)
    for row in card:
        # every figure the declared benchmark has is the package's (whose block also has
        # figures the declared one has not: intervals, the official counterfactual accuracy)
        ours = {k: v for k, v in row[NAME].items() if not k.endswith(("_ci", "_n", "_lead"))}
        assert ours == {k: row["mt-geneval"][k] for k in ours}, row["system"]
        assert {"gap_fr", "gap_de", "bleu_all", "clean_share"} <= set(row[NAME])
    assert next(r for r in card if r["system"] == "copy-source")[NAME]["gap_de"] > 0
    reasons = table(project, NAME, "finish_reasons")
    assert sorted(reasons["system"]) == sorted(SYSTEMS)
    assert (project / f"results/{RUN}/{NAME}/figures/accuracy.pdf").stat().st_size > 0


def test_every_declared_rule_fingerprints_and_provides_what_its_script_runs(
        tmp_path_factory):
    """tests/workflow/test_fingerprints.py's and tests/workflow/test_env_imports.py's checks, on a
    plan of the
    declared benchmark (the default does not run it, so those tests never see its rules)."""
    from pathlib import Path

    from ..conftest import ROOT
    from ..dag_params import plan
    from .test_env_imports import env_faults
    from .test_fingerprints import all_faults

    project = copy_project(tmp_path_factory.mktemp("declared-plan") / "project",
                           share_cache=False)
    (project / "declared.yaml").write_text(yaml.safe_dump(CONFIG), encoding="utf-8")
    found = plan(project, "declared.yaml")
    ours = [r for r in found["rules"] if r["rule"].startswith("declared_")]
    assert sorted(r["rule"] for r in ours) == sorted(
        f"declared_{stage}_mt_geneval_counterfactual"
        for stage in ("data", "score", "tables", "figures"))
    assert all_faults(found, CONFIG) == []
    for rule in ours:  # the checkout's env files and scripts (the copy is for planning)
        for key in ("script", "conda"):
            rule[key] = str(ROOT / Path(rule[key]).relative_to(project))
    assert env_faults(ours) == []


def test_its_explorer_reads_each_output_as_the_package_does(project):
    """The declared benchmark's explorer (issue 53) lists every segment with each system's
    output, read by MT-GenEval's rule: the same readings as the package's explorer."""
    from gendermt.report.explorer import read_page, rows_of

    ours = rows_of(read_page(project / f"results/{RUN}/{NAME}/explorer.html"))
    theirs = rows_of(read_page(project / f"results/{RUN}/mt-geneval/explorer.html"))
    assert {len(r["outputs"]) for r in ours} == {len(SYSTEMS)}
    assert len(ours) == len(theirs) > 0

    def readings(rows):
        return sorted((r["source"], s, o["text"], o["read"], o["correct"])
                      for r in rows for s, o in r["outputs"].items())
    assert readings(ours) == readings(theirs)

