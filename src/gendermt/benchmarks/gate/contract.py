"""GATE: what the workflow, the command line and the scorecard need
of this benchmark (gendermt.benchmarks.contract)."""

from gendermt.benchmarks.contract import Benchmark, Scorecard

BENCHMARKS = (
    Benchmark(
        name="gate",
        label="GATE",
        order=60,
        package="gendermt.benchmarks.gate",
        rules="workflow/rules/gate.smk",
        data_keys=("data.root/", "templates"),
        data_stage_keys=("data.root/",),
        datasets=("dataset.yaml",),
        placeholders=frozenset(["gender", "translation"]),
        cli="gendermt.benchmarks.gate.cli",
        scorecard=Scorecard(
            "gate", "GATE", ("gate/tables/prf.csv",), "gendermt.benchmarks.gate.scorecard:read"
        ),
        labels={
            "gate/tables/prf": ("Precision, recall, F0.5", ""),
            "gate/figures/f05": ("F0.5 per language and direction", ""),
        },
    ),
)
