# GAMBIT with GRAPE (Mastromichalakis et al. 2025): English texts with gender-ambiguous
# occupations → translations into each target language (the prompts are named by it: fr,
# el) → the gender each translation assigns to the occupation (a detector: the offline
# lexicon, or the LLM judge of §3 on any chat system) → GRAPE against parity, labour
# statistics and stereotype ratings (Tables 2, 3, 8, 9, 10, Figures 2–3). A validation rule
# measures each detector's accuracy on labelled texts (Table 1).

from gendermt.benchmarks.gambit import config as gambit_config
from gendermt.scoring.output_quality import clean_share_floor


GAMBIT = benchmark_spec("gambit")
# model × target language (checked at start-up: gendermt.benchmarks.gambit.config)
GAMBIT_RUNS = gambit_config.runs(GAMBIT, SYSTEMS)
BENCHMARK_RUNS["gambit"] = [
    {"system": r["system"], "prompt": r["lang"], "model": r["model"]} for r in GAMBIT_RUNS
]
GAMBIT_DETECTORS = list(GAMBIT.get("detectors", {}))
# The detector whose assignments the GRAPE tables use; the others are cross-checks.
GAMBIT_DETECTOR = GAMBIT.get("detector", GAMBIT_DETECTORS[0] if GAMBIT_DETECTORS else "")
GAMBIT_LABOUR = gambit_config.labour_files(GAMBIT)
GAMBIT_STEREOTYPE = GAMBIT.get("references", {}).get("stereotype")
GAMBIT_VALIDATION = list(GAMBIT.get("validation", {}))
GAMBIT_TABLES = [
    "grape",
    "grape_groups",
    "extremes",
    "stereotype_groups",
    "correlations",
    "cross_lingual",
    "intra_model_pairs",
] + [f"intra_model_{lang}" for lang in GAMBIT.get("prompts", [])]
# The paper's layouts of Tables 2, 8, 3 and 9 (CSV, Markdown, LaTeX).
GAMBIT_PAPER_TABLES = [
    "grape_paper",
    "extremes_paper",
    "stereotype_groups_paper",
    "correlations_paper",
]
# Figures are drawn from these tables (gambit/figures.py), never from the assignments again.
GAMBIT_FIGURE_TABLES = ["grape", "grape_groups", "stereotype_groups", "intra_model_pairs"]
GAMBIT_FIGURES = ["grape_overview"] + [f"intra_model_{lang}" for lang in GAMBIT.get("prompts", [])]
GAMBIT_ASSIGNMENTS = gambit_config.assignments(RESULTS, GAMBIT_RUNS, GAMBIT_DETECTOR)
GAMBIT_ALL_ASSIGNMENTS = {d: gambit_config.assignments(RESULTS, GAMBIT_RUNS, d) for d in GAMBIT_DETECTORS}

declare_targets(
    "gambit",
    expand(f"{RESULTS}/gambit/tables/{{table}}.csv", table=GAMBIT_TABLES + GAMBIT_PAPER_TABLES)
    + expand(f"{RESULTS}/gambit/figures/{{figure}}.{{ext}}", figure=GAMBIT_FIGURES, ext=["png", "pdf"])
    + ([f"{RESULTS}/gambit/tables/validation.csv"] if GAMBIT_VALIDATION else [])
    + ([f"{RESULTS}/gambit/tables/detector_agreement.csv"] if len(GAMBIT_DETECTORS) > 1 else [])
)


# the explorer (report.smk): every text with each system's translation per language and the
# gender the headline detector assigned
declare_explorer(
    "gambit",
    "gendermt.benchmarks.gambit.explorer",
    label="GAMBIT",
    inputs={
        "runs": [
            {
                "system": r["system"],
                "prompt": r["lang"],
                "path": f"{RESULTS}/gambit/translations/{r['system']}/{r['lang']}.jsonl",
                "assignments": path,
            }
            for r, path in zip(GAMBIT_RUNS, GAMBIT_ASSIGNMENTS)
        ],
        "data": f"{RESULTS}/gambit/data.parquet",
        "detector": GAMBIT_DETECTOR,
        "systems": GAMBIT["systems"],
    },
)


localrules: gambit_data, gambit_isco, gambit_inputs, gambit_validation_table, gambit_tables, gambit_figures, gambit_agreement


ruleorder: gambit_inputs > build_inputs


rule gambit_data:
    input:
        data=provenanced(GAMBIT.get("data", {}).get("path", [])),
        isco=GAMBIT.get("isco", []),
    output:
        data=f"{RESULTS}/gambit/data.parquet",
        provenance=f"{RESULTS}/gambit/data.json",
    params:
        code=stage_code("gendermt.benchmarks.gambit.data"),
        # path, size and sha256 of what it reads: a changed source reruns it
        data_sources=data_source_identity([GAMBIT["data"]["path"]]),
        source=GAMBIT.get("data"),
    log:
        f"{LOGS}/gambit/data.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/data.py"


rule gambit_isco:
    input:
        provenanced(GAMBIT.get("isco", [])),
    output:
        f"{RESULTS}/gambit/isco.parquet",
    params:
        code=stage_code("gendermt.benchmarks.gambit.isco"),
        data_sources=data_source_identity([GAMBIT["isco"]] if GAMBIT.get("isco") else []),
    log:
        f"{LOGS}/gambit/isco.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/isco.py"


rule gambit_inputs:
    input:
        data=f"{RESULTS}/gambit/data.parquet",
    output:
        f"{RESULTS}/gambit/inputs/{{lang}}.jsonl",
    params:
        code=stage_code("gendermt.translation.prompts"),
        template=template_for("gambit", "lang"),
    log:
        f"{LOGS}/gambit/inputs/{{lang}}.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/inputs.py"


rule gambit_detect:
    input:
        translations=f"{RESULTS}/gambit/translations/{{system}}/{{lang}}.jsonl",
        data=f"{RESULTS}/gambit/data.parquet",
        isco=f"{RESULTS}/gambit/isco.parquet",
        detector=lambda wc: gambit_config.detector_files(GAMBIT, wc.detector, wc.lang),
    output:
        csv=f"{RESULTS}/gambit/assignments/{{detector}}/{{system}}/{{lang}}.csv",
        summary=f"{RESULTS}/gambit/assignments/{{detector}}/{{system}}/{{lang}}.json",
    params:
        # the stage, gendermt.translation.cache (the script reads the request cache folder from it)
        # and the backend of the detector's judge system (a lexicon builds none)
        code=lambda wc: stage_code(
            "gendermt.benchmarks.gambit.evaluate",
            "gendermt.translation.cache",
            *backend_modules_of(*gambit_config.judge_system(GAMBIT, SYSTEMS, wc.detector)),
        ),
        detector=lambda wc: gambit_config.detector(GAMBIT, wc.detector),
        judge=lambda wc: gambit_config.judge_system(GAMBIT, SYSTEMS, wc.detector),
    resources:
        **node_resources("gambit_detect"),
        **gpu_resources(lambda wc: gambit_config.detector_gpus(GAMBIT, SYSTEMS, wc.detector)),
    log:
        f"{LOGS}/gambit/detect/{{detector}}/{{system}}/{{lang}}.log",
    benchmark:
        f"{RESULTS}/benchmarks/gambit/detect/{{detector}}/{{system}}/{{lang}}.tsv"
    conda:
        env_file("gambit.yaml")
    script:
        "scripts/detect.py"


rule gambit_validate:
    input:
        validation=lambda wc: GAMBIT["validation"][wc.lang],
        isco=f"{RESULTS}/gambit/isco.parquet",
        detector=lambda wc: gambit_config.detector_files(GAMBIT, wc.detector, wc.lang),
    output:
        csv=f"{RESULTS}/gambit/validation/{{detector}}/{{lang}}.csv",
        summary=f"{RESULTS}/gambit/validation/{{detector}}/{{lang}}.json",
    params:
        # the stage, gendermt.translation.cache (the script reads the request cache folder from it)
        # and the backend of the detector's judge system (a lexicon builds none)
        code=lambda wc: stage_code(
            "gendermt.benchmarks.gambit.validation",
            "gendermt.translation.cache",
            *backend_modules_of(*gambit_config.judge_system(GAMBIT, SYSTEMS, wc.detector)),
        ),
        detector=lambda wc: gambit_config.detector(GAMBIT, wc.detector),
        judge=lambda wc: gambit_config.judge_system(GAMBIT, SYSTEMS, wc.detector),
    resources:
        **node_resources("gambit_validate"),
        **gpu_resources(lambda wc: gambit_config.detector_gpus(GAMBIT, SYSTEMS, wc.detector)),
    log:
        f"{LOGS}/gambit/validate/{{detector}}/{{lang}}.log",
    benchmark:
        f"{RESULTS}/benchmarks/gambit/validate/{{detector}}/{{lang}}.tsv"
    conda:
        env_file("gambit.yaml")
    script:
        "scripts/validate.py"


rule gambit_validation_table:
    input:
        expand(
            f"{RESULTS}/gambit/validation/{{detector}}/{{lang}}.json",
            detector=GAMBIT_DETECTORS,
            lang=GAMBIT_VALIDATION,
        ),
    output:
        csv=table_report(
            f"{RESULTS}/gambit/tables/validation.csv",
            caption="report/validation.rst",
            category="GAMBIT",
            subcategory="Tables",
        ),
        md=f"{RESULTS}/gambit/tables/validation.md",
    params:
        code=stage_code("gendermt.benchmarks.gambit.validation_table"),
    log:
        f"{LOGS}/gambit/validation_table.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/validation_table.py"


rule gambit_tables:
    input:
        assignments=GAMBIT_ASSIGNMENTS,
        isco=f"{RESULTS}/gambit/isco.parquet",
        labour=list(GAMBIT_LABOUR.values()),
        stereotype=GAMBIT_STEREOTYPE or [],
        # each run's clean share beside its figures (gendermt.scoring.output_quality)
        checks=f"{RESULTS}/gambit/tables/output_checks.csv",
    output:
        **{
            table: table_report(
                f"{RESULTS}/gambit/tables/{table}.csv",
                caption=f"report/{gambit_config.figure_caption(table)}.rst",
                category="GAMBIT",
                subcategory="Tables",
            )
            for table in GAMBIT_TABLES
        },
        **{f"{table}_md": f"{RESULTS}/gambit/tables/{table}.md" for table in GAMBIT_TABLES},
        **{
            table: table_report(
                f"{RESULTS}/gambit/tables/{table}.csv",
                caption="report/paper_tables.rst",
                category="GAMBIT",
                subcategory="Paper tables",
            )
            for table in GAMBIT_PAPER_TABLES
        },
        **{
            f"{table}_{ext}": f"{RESULTS}/gambit/tables/{table}.{ext}"
            for table in GAMBIT_PAPER_TABLES
            for ext in ("md", "tex")
        },
    params:
        code=stage_code("gendermt.benchmarks.gambit.tables"),
        runs=[
            {**run, "assignments": path} for run, path in zip(GAMBIT_RUNS, GAMBIT_ASSIGNMENTS)
        ],
        labour=GAMBIT_LABOUR,
        settings=GAMBIT.get("analysis", {}),
        floor=clean_share_floor(
            config.get("scorecard", {}).get("quality_floors"), "gambit", "grape"
        ),
        # whose assignments the runs are: in GRAPE's signature
        detector=GAMBIT_DETECTOR,
    log:
        f"{LOGS}/gambit/tables.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/tables.py"


rule gambit_figures:
    input:
        tables=expand(f"{RESULTS}/gambit/tables/{{table}}.csv", table=GAMBIT_FIGURE_TABLES),
        # read for their `source` column only: a figure on example files says so
        references=list(GAMBIT_LABOUR.values()) + ([GAMBIT_STEREOTYPE] if GAMBIT_STEREOTYPE else []),
    output:
        **{
            f"{figure}_png": figure_report(
                f"{RESULTS}/gambit/figures/{figure}.png",
                caption=f"report/{gambit_config.figure_caption(figure)}.rst",
                category="GAMBIT",
                subcategory="Figures",
            )
            for figure in GAMBIT_FIGURES
        },
        **{f"{figure}_pdf": f"{RESULTS}/gambit/figures/{figure}.pdf" for figure in GAMBIT_FIGURES},
    params:
        code=stage_code("gendermt.benchmarks.gambit.figures"),
    log:
        f"{LOGS}/gambit/figures.log",
    conda:
        env_file("plot.yaml")
    script:
        "scripts/figures.py"


rule gambit_agreement:
    input:
        **GAMBIT_ALL_ASSIGNMENTS,
    output:
        csv=table_report(
            f"{RESULTS}/gambit/tables/detector_agreement.csv",
            caption="report/detector_agreement.rst",
            category="GAMBIT",
            subcategory="Tables",
        ),
        md=f"{RESULTS}/gambit/tables/detector_agreement.md",
    params:
        code=stage_code("gendermt.benchmarks.gambit.agreement"),
        runs=GAMBIT_RUNS,
        detectors=GAMBIT_DETECTORS,
    log:
        f"{LOGS}/gambit/agreement.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/agreement.py"
