"""ConGA: what the workflow, the command line and the scorecard need
of this benchmark (gendermt.core.contract)."""

from gendermt.core.contract import Benchmark, NodeRule, Scorecard

CONTRACTS = (
    Benchmark(
        name="conga",
        label="ConGA",
        order=30,
        package="gendermt.benchmarks.conga",
        rules="rules.smk",
        # its row of the README's benchmark table (tools/gen_docs.py)
        direction="en→it",
        description=(
            "ConGA on gENder-IT: entity-level gender preservation: matches, errors, A→M/A→F "
            "bias, P/R/F1 per gender"
        ),
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
            findings="gendermt.benchmarks.conga.findings:part",
            # its figures on the legend: (JSON key pattern, what it is, better)
            figures=(
                (
                    "a_to_m_share",
                    "A→M share of the ambiguous entities rendered with a gender",
                    "closer to 50",
                ),
                ("f1_m", "F1 of masculine entities", "higher"),
                ("f1_f", "F1 of feminine entities", "higher"),
            ),
            # the front page's compact scorecard shows these
            headline=("f1_m", "f1_f"),
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
