# Neo-GATE (en→it, neomorphemes): the published TSVs adapted to each paradigm →
# data.parquet; one inputs file per run (format × shots × paradigm, named by {run});
# the generic translate rule; Neo-GATE's own metric per system × run; Table 6 and Figs 1-3.
from gendermt.benchmarks.neogate.inputs import resolve_templates, study_runs


# a run (prompt format × shots × paradigm) is one value of {run}: Neo-GATE's rules call the
# path segment the generic rules call {prompt} by what it is here
NEOGATE = benchmark_spec("neogate")
# (checked at start-up: gendermt.benchmarks.neogate.config)
NEOGATE_TEMPLATES = resolve_templates(NEOGATE["templates"])
NEOGATE_RUNS = study_runs(NEOGATE, NEOGATE_TEMPLATES)
NEOGATE_PARADIGMS = list(NEOGATE.get("paradigms", {}))
# Systems run on every run; paradigm systems (e.g. the oracle of one paradigm's adapted
# reference) only on the runs of their paradigm.
NEOGATE_PARADIGM_SYSTEMS = NEOGATE.get("paradigm_systems", {})
NEOGATE_SYSTEMS = list(
    dict.fromkeys(
        NEOGATE.get("systems", [])
        + [s for p in NEOGATE_PARADIGMS for s in NEOGATE_PARADIGM_SYSTEMS.get(p, [])]
    )
)
NEOGATE_SUMMARIES = [
    f"{RESULTS}/neogate/scores/{system}/{name}.json"
    for name, run in NEOGATE_RUNS.items()
    for system in NEOGATE.get("systems", [])
    + NEOGATE_PARADIGM_SYSTEMS.get(run["paradigm"], [])
]
NEOGATE_RAW = (
    [NEOGATE["data"]["test"], NEOGATE["data"]["dev"]]
    + [spec["mapping"] for spec in NEOGATE["paradigms"].values()]
)
NEOGATE_METRICS = ["coverage", "accuracy", "cwa", "misgeneration"]

BENCHMARK_RUNS["neogate"] = [
    {"system": system, "prompt": name, "paradigm": run["paradigm"]}
    for name, run in NEOGATE_RUNS.items()
    for system in NEOGATE.get("systems", [])
    + NEOGATE_PARADIGM_SYSTEMS.get(run["paradigm"], [])
]
declare_targets(
    "neogate",
    expand(
        f"{RESULTS}/neogate/tables/{{table}}.csv",
        table=["zeroshot", "fewshot", "extraction", "dataset"],
    )
    + expand(
        f"{RESULTS}/neogate/figures/{{metric}}.{{ext}}",
        metric=NEOGATE_METRICS,
        ext=["png", "pdf"],
    )
)


# the explorer (report.smk): every sentence with each system's output per run and the words
# Neo-GATE's metric found
declare_explorer(
    "neogate",
    "gendermt.benchmarks.neogate.explorer",
    label="Neo-GATE",
    inputs={
        "runs": [
            {**r, "path": f"{RESULTS}/neogate/scores/{r['system']}/{r['prompt']}.parquet"}
            for r in BENCHMARK_RUNS["neogate"]
        ],
        "data": f"{RESULTS}/neogate/data.parquet",
        "systems": NEOGATE_SYSTEMS,
    },
)


localrules: neogate_data, neogate_inputs, neogate_score, neogate_tables, neogate_figures


ruleorder: neogate_inputs > build_inputs
ruleorder: neogate_score > score


rule neogate_data:
    input:
        provenanced(NEOGATE_RAW),
    output:
        data=f"{RESULTS}/neogate/data.parquet",
        dev=f"{RESULTS}/neogate/dev.parquet",
        provenance=f"{RESULTS}/neogate/data.json",
    params:
        code=stage_code("gendermt.benchmarks.neogate.data"),
        # path, size and sha256 of what it reads: a changed source reruns it
        data_sources=data_source_identity(NEOGATE_RAW),
        source=NEOGATE.get("data"),
        paradigms=NEOGATE.get("paradigms"),
    log:
        f"{LOGS}/neogate/data.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/data.py"


rule neogate_inputs:
    input:
        data=f"{RESULTS}/neogate/data.parquet",
        dev=f"{RESULTS}/neogate/dev.parquet",
    output:
        f"{RESULTS}/neogate/inputs/{{run}}.jsonl",
    params:
        code=stage_code("gendermt.benchmarks.neogate.inputs"),
        template=lambda wc: NEOGATE_TEMPLATES[NEOGATE_RUNS[wc.run]["format"]],
        run=lambda wc: NEOGATE_RUNS[wc.run],
    log:
        f"{LOGS}/neogate/inputs/{{run}}.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/inputs.py"


rule neogate_score:
    input:
        translations=f"{RESULTS}/neogate/translations/{{system}}/{{run}}.jsonl",
        data=f"{RESULTS}/neogate/data.parquet",
        inputs=f"{RESULTS}/neogate/inputs/{{run}}.jsonl",
    output:
        scores=f"{RESULTS}/neogate/scores/{{system}}/{{run}}.parquet",
        summary=f"{RESULTS}/neogate/scores/{{system}}/{{run}}.json",
        inspection=f"{RESULTS}/neogate/scores/{{system}}/{{run}}.tsv",
    params:
        code=stage_code("gendermt.benchmarks.neogate.evaluate"),
        run=lambda wc: NEOGATE_RUNS[wc.run],
        template=lambda wc: NEOGATE_TEMPLATES[NEOGATE_RUNS[wc.run]["format"]],
        options=NEOGATE.get("evaluation", {}),
    log:
        f"{LOGS}/neogate/score/{{system}}/{{run}}.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/score.py"


rule neogate_tables:
    input:
        summaries=NEOGATE_SUMMARIES,
        provenance=f"{RESULTS}/neogate/data.json",
    output:
        zeroshot=table_report(
            f"{RESULTS}/neogate/tables/zeroshot.csv",
            caption="report/zeroshot.rst",
            category="Neo-GATE",
            subcategory="Tables",
        ),
        zeroshot_md=f"{RESULTS}/neogate/tables/zeroshot.md",
        fewshot=table_report(
            f"{RESULTS}/neogate/tables/fewshot.csv",
            caption="report/fewshot.rst",
            category="Neo-GATE",
            subcategory="Tables",
        ),
        fewshot_md=f"{RESULTS}/neogate/tables/fewshot.md",
        extraction=table_report(
            f"{RESULTS}/neogate/tables/extraction.csv",
            caption="report/extraction.rst",
            category="Neo-GATE",
            subcategory="Tables",
        ),
        extraction_md=f"{RESULTS}/neogate/tables/extraction.md",
        dataset=table_report(
            f"{RESULTS}/neogate/tables/dataset.csv",
            caption="report/dataset.rst",
            category="Neo-GATE",
            subcategory="Tables",
        ),
        dataset_md=f"{RESULTS}/neogate/tables/dataset.md",
    params:
        code=stage_code("gendermt.benchmarks.neogate.tables"),
        systems=NEOGATE_SYSTEMS,
        paradigms=NEOGATE_PARADIGMS,
        formats=NEOGATE.get("prompts"),
    log:
        f"{LOGS}/neogate/tables.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/tables.py"


rule neogate_figures:
    input:
        summaries=NEOGATE_SUMMARIES,
    output:
        coverage_png=figure_report(
            f"{RESULTS}/neogate/figures/coverage.png",
            caption="report/heatmap.rst",
            category="Neo-GATE",
            subcategory="Figures",
        ),
        coverage_pdf=f"{RESULTS}/neogate/figures/coverage.pdf",
        accuracy_png=figure_report(
            f"{RESULTS}/neogate/figures/accuracy.png",
            caption="report/heatmap.rst",
            category="Neo-GATE",
            subcategory="Figures",
        ),
        accuracy_pdf=f"{RESULTS}/neogate/figures/accuracy.pdf",
        cwa_png=figure_report(
            f"{RESULTS}/neogate/figures/cwa.png",
            caption="report/heatmap.rst",
            category="Neo-GATE",
            subcategory="Figures",
        ),
        cwa_pdf=f"{RESULTS}/neogate/figures/cwa.pdf",
        misgeneration_png=figure_report(
            f"{RESULTS}/neogate/figures/misgeneration.png",
            caption="report/heatmap.rst",
            category="Neo-GATE",
            subcategory="Figures",
        ),
        misgeneration_pdf=f"{RESULTS}/neogate/figures/misgeneration.pdf",
    params:
        code=stage_code("gendermt.benchmarks.neogate.figures"),
        systems=NEOGATE_SYSTEMS,
        paradigms=NEOGATE_PARADIGMS,
        formats=NEOGATE.get("prompts"),
    log:
        f"{LOGS}/neogate/figures.log",
    conda:
        env_file("plot.yaml")
    script:
        "scripts/figures.py"
