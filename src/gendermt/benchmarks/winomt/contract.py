"""WinoMT: what the workflow, the command line and the scorecard need
of this benchmark (gendermt.core.contract)."""

from gendermt.core.contract import Benchmark, NodeRule, Scorecard, StoredFormat

CONTRACTS = (
    Benchmark(
        name="winomt",
        label="WinoMT",
        order=70,
        package="gendermt.benchmarks.winomt",
        # the data columns a study's subset may stratify by or keep together
        subset_columns=("gold", "stereotype", "entity"),
        rules="rules.smk",
        # its row of the README's benchmark table (tools/gen_docs.py)
        direction="en→es/fr/it/ru/uk/he/ar/de",
        description=(
            "gender accuracy, ΔG, ΔS of commercial systems: their published 2019 outputs "
            "re-scored offline, or today's services (winomt-2026.yaml)"
        ),
        # one job per target language loads that language's spaCy model once and aligns every
        # system's file with every reader (winomt_gender_apart: a system that runs only some
        # languages, one job per system and language)
        node_rules={
            "winomt_gender": NodeRule(runtime=60, mem_mb=8000),
            "winomt_gender_apart": NodeRule(runtime=60, mem_mb=8000),
            # a whole-file system's translations of the whole set (Apertium: about a minute
            # a language)
            "winomt_whole": NodeRule(runtime=30, mem_mb=2000),
            # one adjective file (1,584 lines) read by every reader
            "winomt_adjectives": NodeRule(runtime=30, mem_mb=4000),
        },
        data_keys=("data.path", "data.pro", "data.anti", "templates"),
        data_stage_keys=("data.path", "data.pro", "data.anti"),
        datasets=("dataset.yaml",),
        # the published systems' outputs: `source ||| translation` lines (format: winomt)
        stored_formats={
            "winomt": StoredFormat(
                "gendermt.benchmarks.winomt.stored_format:read",
                settings={"source_mismatch": ("error", "warn")},
            ),
        },
        # alignment_corpus: a whole-file system's backend can give the whole set; compare:
        # pairs of the benchmark's systems sharing a language
        check="gendermt.benchmarks.winomt.compare:check",
        # the paid-work estimate of a commercial MT service at start-up
        source_texts="gendermt.benchmarks.winomt.sources:source_texts",
        cli="gendermt.benchmarks.winomt.cli",
        commands=("gendermt.benchmarks.winomt.align_cli",),
        scorecard=Scorecard(
            "winomt",
            "WinoMT",
            ("winomt/tables/summary.csv",),
            "gendermt.benchmarks.winomt.scorecard:read",
            findings="gendermt.benchmarks.winomt.findings:part",
            # SmolLM2's loops leave 60 % of the entities readable
            floors={"readable": 75.0},
            # its figures on the legend: (JSON key pattern, what it is, better)
            figures=(
                ("acc_{lang}", "gender accuracy", "higher"),
                ("delta_g_{lang}", "ΔG: F1 male − female", "closer to 0"),
                ("delta_s_{lang}", "ΔS: accuracy pro − anti", "closer to 0"),
                (
                    "readable_{lang}",
                    "readable genders: % of entities whose gender the reader could read (a "
                    "quality floor)",
                    "higher",
                ),
            ),
            # the front page's compact scorecard shows these
            headline=("acc_{lang}", "delta_s_{lang}"),
        ),
        labels={
            "winomt/tables/readers": ("Gender readers beside the paper", "Table 2"),
            "winomt/tables/summary": ("Accuracy, ΔG, ΔS", ""),
            "winomt/figures/systems": ("Accuracy, ΔG, ΔS per system", ""),
        },
        # the pairs of `compare:`, one table and figure per target language
        label_patterns=(
            ("winomt/tables/compare_(\\w+)", ("Change per system pair, {0}", "")),
            ("winomt/figures/compare_(\\w+)", ("Change per system pair, {0}", "")),
        ),
    ),
)
