"""GATE X-E: what the workflow, the command line and the scorecard need
of this benchmark (gendermt.core.contract)."""

from gendermt.core.contract import Benchmark, Scorecard

CONTRACTS = (
    Benchmark(
        name="gate-x-e",
        label="GATE X-E",
        order=50,
        package="gendermt.benchmarks.gate_x_e",
        # the data columns a study's subset may stratify by or keep together
        subset_columns=("instance_id", "language", "category", "original_gender"),
        rules="rules.smk",
        # its row of the README's benchmark table (tools/gen_docs.py)
        direction="tr/hu/fi/fa→en",
        description=(
            "gender rewriting of translations: exact-match accuracy by subtype and gender; "
            "BLEU/WER of the rewrites"
        ),
        data_keys=("data.root/", "templates"),
        data_stage_keys=("data.root/",),
        datasets=("dataset.yaml",),
        placeholders=frozenset(["translation"]),
        check="gendermt.benchmarks.gate_x_e.config:check",
        cli="gendermt.benchmarks.gate_x_e.cli",
        scorecard=Scorecard(
            "gate-x-e",
            "GATE X-E",
            ("gate-x-e/tables/accuracy.csv",),
            "gendermt.benchmarks.gate_x_e.scorecard:read",
            findings="gendermt.benchmarks.gate_x_e.findings:part",
            # its figures on the legend: (JSON key pattern, what it is, better)
            figures=(
                ("accuracy", "rewriting accuracy over Table 2's Overall rows", "higher"),
            ),
            # the front page's compact scorecard shows these
            headline=("accuracy",),
        ),
        labels={
            "gate-x-e/tables/accuracy": ("Rewriting accuracy", "Table 2"),
            "gate-x-e/tables/rewriting": ("Rewriting: accuracy, BLEU, WER", "Table 6"),
            "gate-x-e/tables/tuples": ("Test tuples", "Table 5"),
            "gate-x-e/figures/accuracy": ("Rewriting accuracy", "Table 2 (figure)"),
            "gate-x-e/tables/errors": ("Error types of wrong rewrites", "Table 3"),
            "gate-x-e/tables/corpus": ("Instances per label", "Table 4"),
            "gate-x-e/tables/swapped": ("Swapped f/m translations", ""),
            "gate-x-e/figures/lengths": ("Sentence lengths", "Figure 3"),
        },
    ),
)
