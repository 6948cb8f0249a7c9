# GATE X-E (→en gender rewriting): the published files → requests and test tuples (§4.2),
# then every system × prompt's answers → rewrites per tuple → the paper's tables and a figure.
# Requests go through the generic `translate` rule; their inputs have a rule of their own
# (a rewriter sees the original translation and the source sentence).
from gendermt.benchmarks.gate_x_e.data import data_files


GATE_X_E = benchmark_spec("gate-x-e")
GATE_X_E_RAW = (
    configured("benchmarks.gate-x-e.data", data_files, GATE_X_E["data"]["root"], GATE_X_E["data"]["languages"])
)
GATE_X_E_REWRITE_RECORDS = (
    run_paths(f"{RESULTS}/gate-x-e/rewrites/{{system}}/{{prompt}}.parquet", "gate-x-e")
)
GATE_X_E_REWRITES = [r["path"] for r in GATE_X_E_REWRITE_RECORDS]

declare_targets(
    "gate-x-e",
    expand(
        f"{RESULTS}/gate-x-e/tables/{{table}}.csv",
        table=["accuracy", "rewriting", "tuples", "answers"],
    )
    + expand(f"{RESULTS}/gate-x-e/figures/accuracy.{{ext}}", ext=["png", "pdf"])
)
# The corpus as published (Table 4, Figure 3, the f/m swap warnings) and Table 3.
declare_targets(
    "gate-x-e",
    expand(f"{RESULTS}/gate-x-e/tables/{{table}}.csv", table=["corpus", "swapped", "errors"])
    + expand(f"{RESULTS}/gate-x-e/figures/lengths.{{ext}}", ext=["png", "pdf"])
)


# the explorer (report.smk): every tuple with each system's rewrite, match or not
declare_explorer(
    "gate-x-e",
    "gendermt.benchmarks.gate_x_e.explorer",
    label="GATE X-E",
    inputs={"runs": GATE_X_E_REWRITE_RECORDS, "systems": GATE_X_E["systems"]},
)


localrules: gate_x_e_data, gate_x_e_inputs, gate_x_e_rewrites, gate_x_e_tables, gate_x_e_figures, gate_x_e_errors, gate_x_e_corpus


ruleorder: gate_x_e_inputs > build_inputs


rule gate_x_e_data:
    input:
        provenanced(GATE_X_E_RAW),
    output:
        data=f"{RESULTS}/gate-x-e/data.parquet",
        tuples=f"{RESULTS}/gate-x-e/tuples.parquet",
        provenance=f"{RESULTS}/gate-x-e/data.json",
    params:
        code=stage_code("gendermt.benchmarks.gate_x_e.data", "gendermt.data.provenance",
                              "gendermt.data.subsets"),
        # path, size and sha256 of what it reads: a changed source reruns it
        data_sources=data_source_identity(GATE_X_E_RAW),
        # the declared public data sets they come from (recorded in data.json)
        datasets=datasets_of(GATE_X_E_RAW),
        exclude_swapped=GATE_X_E.get("exclude_swapped", False),
        # a study's stratified, seeded subset of the requests, whole instances with
        # `unit: instance_id` (gendermt.data.subsets); the tuples follow; absent: the whole set
        **({"subset": GATE_X_E["subset"]} if GATE_X_E.get("subset") else {}),
    log:
        f"{LOGS}/gate-x-e/data.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/data.py"


rule gate_x_e_inputs:
    input:
        data=f"{RESULTS}/gate-x-e/data.parquet",
    output:
        f"{RESULTS}/gate-x-e/inputs/{{prompt}}.jsonl",
    params:
        code=stage_code("gendermt.benchmarks.gate_x_e.inputs"),
        template=template_for("gate-x-e"),
    log:
        f"{LOGS}/gate-x-e/inputs/{{prompt}}.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/inputs.py"


rule gate_x_e_rewrites:
    input:
        translations=f"{RESULTS}/gate-x-e/translations/{{system}}/{{prompt}}.jsonl",
        tuples=f"{RESULTS}/gate-x-e/tuples.parquet",
    output:
        f"{RESULTS}/gate-x-e/rewrites/{{system}}/{{prompt}}.parquet",
    params:
        code=stage_code("gendermt.benchmarks.gate_x_e.evaluate"),
        # how the answers are read: three variants, or the neutral one alone
        answer=lambda wc: TEMPLATES["gate-x-e"][wc.prompt].get("answer", "variants"),
    log:
        f"{LOGS}/gate-x-e/rewrites/{{system}}/{{prompt}}.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/rewrites.py"


rule gate_x_e_tables:
    input:
        data=f"{RESULTS}/gate-x-e/data.parquet",
        tuples=f"{RESULTS}/gate-x-e/tuples.parquet",
        rewrites=GATE_X_E_REWRITES,
    output:
        accuracy=table_report(
            f"{RESULTS}/gate-x-e/tables/accuracy.csv",
            caption="report/accuracy.rst",
            category="GATE X-E",
            subcategory="Tables",
        ),
        accuracy_md=f"{RESULTS}/gate-x-e/tables/accuracy.md",
        rewriting=table_report(
            f"{RESULTS}/gate-x-e/tables/rewriting.csv",
            caption="report/rewriting.rst",
            category="GATE X-E",
            subcategory="Tables",
        ),
        rewriting_md=f"{RESULTS}/gate-x-e/tables/rewriting.md",
        tuples=table_report(
            f"{RESULTS}/gate-x-e/tables/tuples.csv",
            caption="report/tuples.rst",
            category="GATE X-E",
            subcategory="Tables",
        ),
        tuples_md=f"{RESULTS}/gate-x-e/tables/tuples.md",
        answers=table_report(
            f"{RESULTS}/gate-x-e/tables/answers.csv",
            caption="report/answers.rst",
            category="GATE X-E",
            subcategory="Tables",
        ),
        answers_md=f"{RESULTS}/gate-x-e/tables/answers.md",
    params:
        code=stage_code("gendermt.benchmarks.gate_x_e.tables"),
        # each run with how its answers were read (the rewrites rule's `answer`): its
        # accuracy's signature
        runs=[
            {**r, "answer": TEMPLATES["gate-x-e"][r["prompt"]].get("answer", "variants")}
            for r in GATE_X_E_REWRITE_RECORDS
        ],
        bleu=config.get("scoring", {}).get("bleu", {}),
    log:
        f"{LOGS}/gate-x-e/tables.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/tables.py"


rule gate_x_e_figures:
    input:
        accuracy=f"{RESULTS}/gate-x-e/tables/accuracy.csv",
        # runs whose outputs are echoes or in another language are drawn as low quality
        checks=output_checks_table("gate-x-e"),
        # error bars where the workflow computes the intervals (optional)
        intervals=optional_intervals("gate-x-e"),
    output:
        png=figure_report(
            f"{RESULTS}/gate-x-e/figures/accuracy.png",
            caption="report/accuracy_figure.rst",
            category="GATE X-E",
            subcategory="Figures",
        ),
        pdf=f"{RESULTS}/gate-x-e/figures/accuracy.pdf",
    params:
        code=stage_code("gendermt.benchmarks.gate_x_e.figures"),
        kinds=system_kinds(GATE_X_E.get("systems", [])),
        quality_floors=config.get("scorecard", {}).get("quality_floors", {}),
    log:
        f"{LOGS}/gate-x-e/figures.log",
    conda:
        env_file("plot.yaml")
    script:
        "scripts/figures.py"


rule gate_x_e_corpus:
    input:
        GATE_X_E_RAW,
    output:
        corpus=table_report(
            f"{RESULTS}/gate-x-e/tables/corpus.csv",
            caption="report/corpus.rst",
            category="GATE X-E",
            subcategory="Tables",
        ),
        corpus_md=f"{RESULTS}/gate-x-e/tables/corpus.md",
        swapped=table_report(
            f"{RESULTS}/gate-x-e/tables/swapped.csv",
            caption="report/swapped.rst",
            category="GATE X-E",
            subcategory="Tables",
        ),
        swapped_md=f"{RESULTS}/gate-x-e/tables/swapped.md",
        lengths_png=figure_report(
            f"{RESULTS}/gate-x-e/figures/lengths.png",
            caption="report/lengths.rst",
            category="GATE X-E",
            subcategory="Figures",
        ),
        lengths_pdf=f"{RESULTS}/gate-x-e/figures/lengths.pdf",
    params:
        code=stage_code("gendermt.benchmarks.gate_x_e.corpus"),
        exclude_swapped=GATE_X_E.get("exclude_swapped", False),
    log:
        f"{LOGS}/gate-x-e/corpus.log",
    conda:
        env_file("plot.yaml")
    script:
        "scripts/corpus.py"


rule gate_x_e_errors:
    input:
        rewrites=GATE_X_E_REWRITES,
    output:
        csv=table_report(
            f"{RESULTS}/gate-x-e/tables/errors.csv",
            caption="report/errors.rst",
            category="GATE X-E",
            subcategory="Tables",
        ),
        md=f"{RESULTS}/gate-x-e/tables/errors.md",
    params:
        code=stage_code("gendermt.benchmarks.gate_x_e.errors"),
        runs=GATE_X_E_REWRITE_RECORDS,
    log:
        f"{LOGS}/gate-x-e/errors.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/errors.py"


# The headline figure's interval and paired tests over instances
# (gendermt.benchmarks.gate_x_e.intervals).
localrules: gate_x_e_intervals


rule gate_x_e_intervals:
    input:
        rewrites=GATE_X_E_REWRITES,
    output:
        **interval_outputs("gate-x-e", "GATE X-E"),
    params:
        code=stage_code(
            "gendermt.benchmarks.gate_x_e.intervals",
            "gendermt.analysis.intervals",
            "gendermt.analysis.resample",
        ),
        runs=[{k: r[k] for k in ("system", "prompt", "path")} for r in GATE_X_E_REWRITE_RECORDS],
        bootstrap=statistics_settings().get("bootstrap", {}),
    log:
        f"{LOGS}/gate-x-e/intervals.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/intervals.py"
