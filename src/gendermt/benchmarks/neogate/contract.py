"""Neo-GATE and Neo-GATE FLORES: what the workflow, the command line and the scorecard need
of these blocks (gendermt.core.contract)."""

from gendermt.core.contract import Benchmark, Scorecard

CONTRACTS = (
    Benchmark(
        name="neogate",
        label="Neo-GATE",
        order=20,
        package="gendermt.benchmarks.neogate",
        # the data columns a study's subset may stratify by or keep together
        subset_columns=("gate_id", "number"),
        rules="rules.smk",
        # its row of the README's benchmark table (tools/gen_docs.py)
        direction="en→it",
        description=(
            "neomorphemes in any paradigm: coverage, accuracy, CWA, mis-generation, zero- and"
            " few-shot"
        ),
        samples={"data.test": "resources/neogate/Neo-GATE.tsv",
                 "data.dev": "resources/neogate/Neo-GATE-dev.tsv"},
        data_keys=("data.test", "data.dev", "paradigms.*.mapping", "templates"),
        data_stage_keys=("data.test", "data.dev", "paradigms.*.mapping"),
        # on the Hugging Face Hub, pinned to a revision; hashes taken on first use (the
        # manifest says why; gendermt.data.locks)
        datasets=("dataset.yaml",),
        check="gendermt.benchmarks.neogate.config:check",
        templates="gendermt.benchmarks.neogate.config:check_templates",
        cli="gendermt.benchmarks.neogate.cli",
        scorecard=Scorecard(
            "neogate",
            "Neo-GATE",
            ("neogate/tables/zeroshot.csv",),
            "gendermt.benchmarks.neogate.scorecard:read",
            findings="gendermt.benchmarks.neogate.findings:part",
            # its figures on the legend: (JSON key pattern, what it is, better)
            figures=(
                ("cwa_{paradigm}", "coverage-weighted accuracy, zero-shot", "higher"),
                ("misgeneration_{paradigm}", "mis-generation, zero-shot", "lower"),
            ),
            # the front page's compact scorecard shows these
            headline=("cwa_{paradigm}",),
        ),
        labels={
            "neogate/tables/zeroshot": (
                "Zero-shot: coverage, accuracy, CWA, mis-generation",
                "Table 6",
            ),
            "neogate/tables/fewshot": ("Few-shot results", "Figures 1–3 (numbers)"),
            "neogate/tables/extraction": ("Output extraction", ""),
            "neogate/tables/dataset": ("Data: annotations per split", "Table 3"),
            "neogate/figures/coverage": ("Coverage heatmap", "Figures 1–3"),
            "neogate/figures/accuracy": ("Accuracy heatmap", "Figures 1–3"),
            "neogate/figures/cwa": ("CWA heatmap", "Figures 1–3"),
            "neogate/figures/misgeneration": ("Mis-generation heatmap", "Figures 1–3"),
        },
    ),
    Benchmark(
        name="neogate-flores",
        label="Neo-GATE FLORES",
        order=21,
        package="gendermt.benchmarks.neogate",
        rules="flores.smk",
        # its row of the README's benchmark table (tools/gen_docs.py)
        direction="en→it",
        description=(
            "generic translation quality on FLORES files you provide (BLEU, chrF, TER, "
            "BERTScore, COMET), laid out as Neo-GATE's Table 4"
        ),
        schema="flores.schema.yaml",
        samples={
            "data.source": "resources/neogate/flores-sample/devtest/eng_Latn.devtest",
            "data.reference": "resources/neogate/flores-sample/devtest/ita_Latn.devtest",
        },
        data_keys=("data.source", "data.reference", "templates"),
        data_stage_keys=("data.source", "data.reference"),
        labels={
            "neogate-flores/tables/flores": ("Generic quality on FLORES", "Table 4"),
        },
    ),
)
