"""WinoMT: what the workflow, the command line and the scorecard need
of this benchmark (gendermt.benchmarks.contract)."""

from gendermt.benchmarks.contract import Benchmark, NodeRule, Scorecard

BENCHMARKS = (
    Benchmark(
        name="winomt",
        label="WinoMT",
        order=70,
        package="gendermt.benchmarks.winomt",
        rules="workflow/rules/winomt.smk",
        # one job per target language loads that language's spaCy model once and aligns every
        # system's file with every reader (winomt_gender_apart: a system that runs only some
        # languages, one job per system and language)
        node_rules={
            "winomt_gender": NodeRule(runtime=60, mem_mb=8000),
            "winomt_gender_apart": NodeRule(runtime=60, mem_mb=8000),
        },
        data_keys=("data.path", "data.pro", "data.anti", "templates"),
        data_stage_keys=("data.path", "data.pro", "data.anti"),
        datasets=("dataset.yaml",),
        cli="gendermt.benchmarks.winomt.cli",
        commands=("gendermt.benchmarks.winomt.align_cli",),
        scorecard=Scorecard(
            "winomt",
            "WinoMT",
            ("winomt/tables/summary.csv",),
            "gendermt.benchmarks.winomt.scorecard:read",
        ),
        labels={
            "winomt/tables/readers": ("Gender readers beside the paper", "Table 2"),
            "winomt/tables/summary": ("Accuracy, ΔG, ΔS", ""),
            "winomt/figures/systems": ("Accuracy, ΔG, ΔS per system", ""),
        },
    ),
)
