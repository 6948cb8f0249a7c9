# GATE (en→es/fr/it gender rewriting): 2-variant files → requests (each row f→m and m→f),
# the generic `translate` rule runs every system (stored outputs, LLMs, oracles), then
# GateEval's precision / recall / F0.5 per language, direction and category label.
from gendermt.benchmarks.gate.data import variant_files
from gendermt.scoring.output_quality import clean_share_floor


GATE = benchmark_spec("gate")
GATE_RAW = (
    configured("benchmarks.gate.data", variant_files, GATE["data"]["root"], GATE["data"]["languages"])
)
GATE_TRANSLATION_RECORDS = (
    run_paths(f"{RESULTS}/gate/translations/{{system}}/{{prompt}}.jsonl", "gate")
)
GATE_TRANSLATIONS = [r["path"] for r in GATE_TRANSLATION_RECORDS]

declare_targets(
    "gate",
    [f"{RESULTS}/gate/tables/prf.csv"]
    + expand(f"{RESULTS}/gate/figures/f05.{{ext}}", ext=["png", "pdf"])
)


# the explorer (report.smk): every row with each system's rewrite and GateEval's outcome
declare_explorer(
    "gate",
    "gendermt.benchmarks.gate.explorer",
    label="GATE",
    inputs={
        "runs": GATE_TRANSLATION_RECORDS,
        "data": f"{RESULTS}/gate/data.parquet",
        "systems": GATE["systems"],
    },
)


localrules: gate_data, gate_inputs, gate_tables, gate_figures


ruleorder: gate_inputs > build_inputs


rule gate_data:
    input:
        provenanced(GATE_RAW),
    output:
        data=f"{RESULTS}/gate/data.parquet",
        provenance=f"{RESULTS}/gate/data.json",
    params:
        code=stage_code("gendermt.benchmarks.gate.data", "gendermt.data.provenance"),
        # path, size and sha256 of what it reads: a changed source reruns it
        data_sources=data_source_identity(GATE_RAW),
        # the declared public data sets they come from (recorded in data.json)
        datasets=datasets_of(GATE_RAW),
    log:
        f"{LOGS}/gate/data.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/data.py"


rule gate_inputs:
    input:
        data=f"{RESULTS}/gate/data.parquet",
    output:
        f"{RESULTS}/gate/inputs/{{prompt}}.jsonl",
    params:
        code=stage_code("gendermt.benchmarks.gate.inputs"),
        template=template_for("gate"),
    log:
        f"{LOGS}/gate/inputs/{{prompt}}.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/inputs.py"


rule gate_tables:
    input:
        data=f"{RESULTS}/gate/data.parquet",
        translations=GATE_TRANSLATIONS,
        # each run's clean share beside its figures (gendermt.scoring.output_quality)
        checks=f"{RESULTS}/gate/tables/output_checks.csv",
    output:
        prf=table_report(
            f"{RESULTS}/gate/tables/prf.csv",
            caption="report/prf.rst",
            category="GATE",
            subcategory="Tables",
        ),
        prf_md=f"{RESULTS}/gate/tables/prf.md",
    params:
        code=stage_code("gendermt.benchmarks.gate.tables"),
        runs=GATE_TRANSLATION_RECORDS,
        min_words=GATE.get("min_words"),
        max_words=GATE.get("max_words"),
        full_set_recall=GATE.get("full_set_recall", False),
        floor=clean_share_floor(config.get("scorecard", {}).get("quality_floors"), "gate"),
    log:
        f"{LOGS}/gate/tables.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/tables.py"


rule gate_figures:
    input:
        prf=f"{RESULTS}/gate/tables/prf.csv",
        # error bars where the workflow computes the intervals (optional)
        intervals=optional_intervals("gate"),
    output:
        png=figure_report(
            f"{RESULTS}/gate/figures/f05.png",
            caption="report/f05.rst",
            category="GATE",
            subcategory="Figures",
        ),
        pdf=f"{RESULTS}/gate/figures/f05.pdf",
    params:
        code=stage_code("gendermt.benchmarks.gate.figures"),
        kinds=system_kinds(GATE.get("systems", [])),
    log:
        f"{LOGS}/gate/figures.log",
    conda:
        env_file("plot.yaml")
    script:
        "scripts/figures.py"


# The headline figure's interval and paired tests over the data's rows
# (gendermt.benchmarks.gate.intervals).
localrules: gate_intervals


rule gate_intervals:
    input:
        data=f"{RESULTS}/gate/data.parquet",
        translations=GATE_TRANSLATIONS,
    output:
        **interval_outputs("gate", "GATE"),
    params:
        code=stage_code(
            "gendermt.benchmarks.gate.intervals",
            "gendermt.benchmarks.gate.metric",
            "gendermt.analysis.intervals",
            "gendermt.analysis.resample",
        ),
        runs=GATE_TRANSLATION_RECORDS,
        min_words=GATE.get("min_words"),
        max_words=GATE.get("max_words"),
        full_set_recall=GATE.get("full_set_recall", False),
        bootstrap=statistics_settings().get("bootstrap", {}),
    log:
        f"{LOGS}/gate/intervals.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/intervals.py"
