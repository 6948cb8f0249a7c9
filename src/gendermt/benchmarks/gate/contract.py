"""GATE: what the workflow, the command line and the scorecard need
of this benchmark (gendermt.core.contract)."""

from gendermt.core.contract import Benchmark, Scorecard

CONTRACTS = (
    Benchmark(
        name="gate",
        label="GATE",
        order=60,
        package="gendermt.benchmarks.gate",
        # the data columns a study's subset may stratify by or keep together
        subset_columns=("language", "requested_gender", "data_split"),
        rules="rules.smk",
        # its row of the README's benchmark table (tools/gen_docs.py)
        direction="en→es/fr/it",
        description=(
            "gender rewriting of translations: precision/recall/F0.5 overall and per category"
            " label"
        ),
        data_keys=("data.root/", "templates"),
        data_stage_keys=("data.root/",),
        datasets=("dataset.yaml",),
        placeholders=frozenset(["gender", "translation"]),
        cli="gendermt.benchmarks.gate.cli",
        scorecard=Scorecard(
            "gate", "GATE", ("gate/tables/prf.csv",), "gendermt.benchmarks.gate.scorecard:read",
            findings="gendermt.benchmarks.gate.findings:part",
            # its figures on the legend: (JSON key pattern, what it is, better)
            figures=(
                ("accuracy", "rewriting accuracy over the overall rows", "higher"),
            ),
            # the front page's compact scorecard shows these
            headline=("accuracy",),
        ),
        labels={
            "gate/tables/prf": ("Precision, recall, F0.5", ""),
            "gate/figures/f05": ("F0.5 per language and direction", ""),
        },
    ),
)
