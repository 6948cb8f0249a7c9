"""The rule files declare what they make (gendermt.workflow.targets), each under its own name:
no shared list a rule file appends to, and a declaration after its kind was read stops the
run naming who declared it, instead of being silently left out (issue 64)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from snakemake.exceptions import WorkflowError

from gendermt.workflow.targets import Targets

from ..conftest import ROOT


def test_targets_are_declared_by_name_in_order_and_read_by_rule_all():
    targets = Targets("results/r")
    targets.declare_targets("winomt", ["a.csv", "b.csv"])
    targets.declare_targets("scorecard", ["s.json"])
    targets.declare_targets("winomt", ["c.csv"])
    assert targets.declared_targets() == ["a.csv", "b.csv", "s.json", "c.csv"]
    assert targets.all_targets({"systems": {}, "benchmarks": {}}, {}) == targets.declared_targets()
    with pytest.raises(WorkflowError, match="late: declares targets after rule all read them"):
        targets.declare_targets("late", ["d.csv"])


def test_an_explorer_is_declared_once_and_not_after_its_rules_were_made():
    targets = Targets("results/r")
    targets.declare_explorer("gate", "m.explorer", label="GATE", inputs={"data": "d"})
    with pytest.raises(WorkflowError, match="gate: its explorer is declared twice"):
        targets.declare_explorer("gate", "m.explorer", label="GATE", inputs={})
    assert targets.explorers() == {"gate": {"module": "m.explorer", "label": "GATE",
                                            "inputs": {"data": "d"}}}
    with pytest.raises(WorkflowError, match="conga: declares explorers after report.smk"):
        targets.declare_explorer("conga", "m.explorer", label="ConGA", inputs={})


def test_scorecard_inputs_and_interval_tables_are_read_once():
    targets = Targets("results/r")
    targets.declare_scorecard_inputs("fairtranslate", {"data": ["d.parquet"]})
    outputs = targets.interval_outputs("gate", "GATE")
    assert outputs["intervals"] == "results/r/gate/tables/intervals.csv"
    assert targets.declared_targets() == ["results/r/gate/tables/intervals.csv",
                                          "results/r/gate/tables/pairs.csv"]
    assert targets.scorecard_inputs() == {"fairtranslate": {"data": ["d.parquet"]}}
    assert targets.interval_tables("gate") == [
        "results/r/gate/tables/intervals.csv", "results/r/gate/tables/pairs.csv"]
    assert targets.interval_tables("winomt") == []
    with pytest.raises(WorkflowError, match="scorecard inputs after scorecard.smk"):
        targets.declare_scorecard_inputs("gambit", {})
    with pytest.raises(WorkflowError, match="interval tables after scorecard.smk"):
        targets.interval_outputs("winomt", "WinoMT")


def test_report_tables_expand_a_pattern_per_benchmark_after_the_others():
    targets = Targets("results/r")
    targets._register("results/r/{benchmark}/tables/output_checks.csv", "c.rst", "{benchmark}",
                      "Output checks of {benchmark}")
    targets._register("results/r/gate/tables/prf.csv", "p.rst", "GATE", "Tables")
    tables = targets.report_tables(["gate", "winomt"])
    assert list(tables)[1:] == ["results/r/gate/tables/prf.csv",
                                "results/r/gate/tables/output_checks.csv",
                                "results/r/winomt/tables/output_checks.csv"]
    assert tables["results/r/winomt/tables/output_checks.csv"]["subcategory"] == (
        "Output checks of winomt")
    with pytest.raises(WorkflowError, match="after report.smk read them"):
        targets._register("results/r/x.csv", "x.rst", "X", "Tables")


def rule_files() -> list[Path]:
    return [ROOT / "Snakefile", *sorted((ROOT / "workflow/rules").glob("*.smk")),
            *sorted((ROOT / "src/gendermt/benchmarks").rglob("*.smk"))]


def test_no_rule_file_writes_into_a_shared_list():
    shared = re.compile(r"\b(TARGETS|EXPLORER_INPUTS|SCORECARD_INPUTS|INTERVAL_TABLES)\b"
                        r"|\bREPORT_TABLES\s*(\[|\.(setdefault|update|append|extend))")
    found = [f"{p.relative_to(ROOT)}:{n}" for p in rule_files()
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if shared.search(line.split("#", 1)[0])]
    assert found == []
