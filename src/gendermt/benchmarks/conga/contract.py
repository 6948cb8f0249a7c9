"""ConGA: what the workflow, the command line and the scorecard need
of this benchmark (gendermt.benchmarks.contract)."""

from gendermt.benchmarks.contract import Benchmark, NodeRule, Scorecard

BENCHMARKS = (
    Benchmark(
        name="conga",
        label="ConGA",
        order=30,
        package="gendermt.benchmarks.conga",
        rules="workflow/rules/conga.smk",
        # the LLM annotator: a chat model (a 7B one in config/study/conga.yaml) over every
        # system × prompt's outputs, like a translation job
        node_rules={"conga_annotate": NodeRule(runtime=240, mem_mb=16000)},
        samples={"data.path": "resources/conga/gENder-IT-sample.tsv"},
        data_keys=("data.path", "templates", "annotations.alternatives"),
        data_stage_keys=("data.path",),
        check="gendermt.benchmarks.conga.config:check",
        cli="gendermt.benchmarks.conga.cli",
        scorecard=Scorecard(
            "conga",
            "ConGA",
            ("conga/tables/categories.csv", "conga/tables/metrics.csv"),
            "gendermt.benchmarks.conga.scorecard:read",
        ),
        labels={
            "conga/tables/tags": ("Tags in the sources", "Table 3"),
            "conga/tables/categories": ("Entity categories (A→M, A→F, …)", "Table 5"),
            "conga/tables/metrics": ("Precision, recall, F1 per gender", "Table 6"),
            "conga/tables/coverage": ("Annotation coverage", ""),
            "conga/tables/sentences": ("Per-sentence log", ""),
            "conga/figures/ambiguous_resolution": ("Ambiguous entities: A→M vs A→F", ""),
        },
    ),
)
