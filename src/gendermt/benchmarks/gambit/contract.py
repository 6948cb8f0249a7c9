"""GAMBIT: what the workflow, the command line and the scorecard need
of this benchmark (gendermt.core.contract)."""

from gendermt.core.contract import Benchmark, NodeRule, Scorecard

CONTRACTS = (
    Benchmark(
        name="gambit",
        label="GAMBIT",
        order=40,
        package="gendermt.benchmarks.gambit",
        # the data columns a study's subset may stratify by or keep together
        subset_columns=("text_type", "isco"),
        rules="rules.smk",
        # its row of the README's benchmark table (tools/gen_docs.py)
        direction="en→fr, en→el",
        description=(
            "GAMBIT with GRAPE: gender assigned to ambiguous occupations against parity, "
            "labour statistics and stereotype ratings; detector validation"
        ),
        # the LLM judge sends two requests per translated text (hours for 9,805 texts on an
        # API) and loads a sentence-embedding model; the lexicon detector takes seconds
        node_rules={
            "gambit_detect": NodeRule(runtime=240, mem_mb=8000, cpus_per_task=2),
            "gambit_validate": NodeRule(runtime=240, mem_mb=8000, cpus_per_task=2),
        },
        samples={
            "data.path": "resources/gambit/sample/gambit-sample.jsonl",
            "validation.fr": "resources/gambit/validation/fr.csv",
            "validation.el": "resources/gambit/validation/el.csv",
            "references.labour.fr": "resources/gambit/references/labour-example-fr.csv",
            "references.labour.el": "resources/gambit/references/labour-example-el.csv",
            "references.stereotype": "resources/gambit/references/stereotype-example.csv",
            # the study's stored Google Translate outputs (config/study/gambit.yaml)
            "/systems.googletrans.path":
                "resources/gambit/translations/masculine-default/{prompt}.tsv",
        },
        data_keys=(
            "data.path",
            "isco",
            "templates",
            "validation.*",
            "references.labour.*",
            "references.stereotype",
            "detectors.*.lexicons.*",
            "detectors.*.templates",
        ),
        data_stage_keys=("data.path",),
        datasets=("isco08.yaml",),
        check="gendermt.benchmarks.gambit.config:check",
        cli="gendermt.benchmarks.gambit.cli",
        scorecard=Scorecard(
            "grape",
            "GAMBIT/GRAPE",
            ("gambit/tables/grape.csv",),
            "gendermt.benchmarks.gambit.scorecard:read",
            findings="gendermt.benchmarks.gambit.findings:part",
            # its figures on the legend: (JSON key pattern, what it is, better)
            figures=(
                (
                    "grape_m_parity_{lang}",
                    "GRAPE_m^parity, ISCO 4-digit (0: parity; 1: masculine forms only)",
                    "closer to 0",
                ),
            ),
            # the front page's compact scorecard shows these
            headline=("grape_m_parity_{lang}",),
        ),
        labels={
            "gambit/tables/validation": ("Detector validation", "Table 1"),
            "gambit/tables/grape": ("GRAPE", "Table 2 (tidy)"),
            "gambit/tables/grape_groups": ("GRAPE per ISCO-08 group", ""),
            "gambit/tables/extremes": ("Extreme occupations", "Table 8 (tidy)"),
            "gambit/tables/stereotype_groups": ("Stereotype groups", "Table 3 (tidy)"),
            "gambit/tables/correlations": ("Correlations with labour data", "Table 9 (tidy)"),
            "gambit/tables/cross_lingual": ("Cross-lingual consistency", "Table 10"),
            "gambit/tables/intra_model_pairs": ("Intra-model consistency", ""),
            "gambit/tables/grape_paper": ("GRAPE", "Table 2"),
            "gambit/tables/extremes_paper": ("Extreme occupations", "Table 8"),
            "gambit/tables/stereotype_groups_paper": ("Stereotype groups", "Table 3"),
            "gambit/tables/correlations_paper": ("Correlations with labour data", "Table 9"),
            "gambit/tables/detector_agreement": ("Detector agreement", ""),
            "gambit/figures/grape_overview": ("GRAPE overview", ""),
        },
        label_patterns=(
            ("gambit/tables/intra_model_(\\w+)", ("Intra-model correlations, {0}", "Figures 2–3")),
            ("gambit/figures/intra_model_(\\w+)", ("Intra-model heatmap, {0}", "Figures 2–3")),
        ),
    ),
)
