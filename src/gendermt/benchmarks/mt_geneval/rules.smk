# MT-GenEval (en→ar/de/es/fr/hi/it/pt/ru): the release's files → one request per segment
# (counterfactual sentences; contextual items with their context in the prompt), the generic
# `translate` and `extract` rules run every system, then the official accuracy per segment
# → tables per language × gender × set, the paper's layout, BLEU/chrF, a figure and the
# scorecard's columns. Everything it needs of the config is its own block (its contract:
# gendermt/benchmarks/mt_geneval/contract.py).
from gendermt.benchmarks.mt_geneval.data import published_files as mt_geneval_files
from gendermt.benchmarks.mt_geneval.context import context_shown as mt_geneval_context_shown
from gendermt.benchmarks.mt_geneval.inputs import templates_of as mt_geneval_templates


MT_GENEVAL = benchmark_spec("mt-geneval")
MT_GENEVAL_DATA = dict(MT_GENEVAL.get("data", {}))
MT_GENEVAL_SETS = list(MT_GENEVAL_DATA.get("sets", ["counterfactual", "contextual"]))
MT_GENEVAL_SPLIT = MT_GENEVAL_DATA.get("split", "test")
MT_GENEVAL_RAW = (
    [
        str(p)
        for p in configured(
            "benchmarks.mt-geneval.data",
            mt_geneval_files,
            MT_GENEVAL_DATA["root"],
            MT_GENEVAL_DATA["languages"],
            MT_GENEVAL_SPLIT,
            MT_GENEVAL_SETS,
        )
    ]
)
# Every run (system × prompt) as a record: the aggregate stages never parse paths.
# `context_shown`: whether the system saw the contextual items' context sentence (a prompted
# LLM on a prompt that shows it; never Apertium or a stored file, which read the sentence alone)
MT_GENEVAL_RUNS = [
    {
        **r,
        "context_shown": mt_geneval_context_shown(
            settings_on(config, "mt-geneval", r["system"]),
            TEMPLATES.get("mt-geneval", {}),
            r["prompt"],
            MT_GENEVAL_SETS,
        ),
    }
    for r in run_paths(
        f"{RESULTS}/mt-geneval/items/{{system}}/{{prompt}}.parquet",
        "mt-geneval",
        summary=f"{RESULTS}/mt-geneval/items/{{system}}/{{prompt}}.json",
    )
]
MT_GENEVAL_TABLES = ["accuracy", "paper", "quality", "summary"]
# sacrebleu options of its metrics (scoring.<metric>), a param of the scoring jobs
MT_GENEVAL_METRIC_OPTIONS = {
    m: config.get("scoring", {}).get(m) or {} for m in MT_GENEVAL.get("metrics", [])
}

declare_targets(
    "mt-geneval",
    expand(f"{RESULTS}/mt-geneval/tables/{{table}}.csv", table=MT_GENEVAL_TABLES)
    + expand(f"{RESULTS}/mt-geneval/figures/accuracy.{{ext}}", ext=["png", "pdf"])
)


# the explorer (report.smk): every segment with each system's output and the gendered words
# found in it
declare_explorer(
    "mt-geneval",
    "gendermt.benchmarks.mt_geneval.explorer",
    label="MT-GenEval",
    inputs={
        "runs": [{k: r[k] for k in ("system", "prompt", "path")} for r in MT_GENEVAL_RUNS],
        "data": f"{RESULTS}/mt-geneval/data.parquet",
        "systems": MT_GENEVAL["systems"],
    },
)


localrules: mt_geneval_data, mt_geneval_inputs, mt_geneval_score, mt_geneval_tables, mt_geneval_figures


ruleorder: mt_geneval_inputs > build_inputs


rule mt_geneval_data:
    input:
        provenanced(MT_GENEVAL_RAW),
    output:
        data=f"{RESULTS}/mt-geneval/data.parquet",
        provenance=f"{RESULTS}/mt-geneval/data.json",
    params:
        code=stage_code("gendermt.benchmarks.mt_geneval.data", "gendermt.data.provenance",
                              "gendermt.data.subsets"),
        # path, size and sha256 of what it reads: a changed source reruns it
        data_sources=data_source_identity(MT_GENEVAL_RAW),
        # the declared public data sets they come from (recorded in data.json)
        datasets=datasets_of(MT_GENEVAL_RAW),
        languages=MT_GENEVAL_DATA.get("languages", []),
        split=MT_GENEVAL_SPLIT,
        sets=MT_GENEVAL_SETS,
        # a study's stratified, seeded subset (gendermt.data.subsets); absent: the whole set
        **({"subset": MT_GENEVAL["subset"]} if MT_GENEVAL.get("subset") else {}),
    log:
        f"{LOGS}/mt-geneval/data.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/data.py"


rule mt_geneval_inputs:
    input:
        data=f"{RESULTS}/mt-geneval/data.parquet",
    output:
        f"{RESULTS}/mt-geneval/inputs/{{prompt}}.jsonl",
    params:
        code=stage_code("gendermt.benchmarks.mt_geneval.inputs"),
        # the prompt's template and, when the contextual set runs, its `_context` companion:
        # their texts are params, so editing one reruns the inputs that used it
        templates=lambda wildcards: mt_geneval_templates(
            TEMPLATES["mt-geneval"], wildcards.prompt, MT_GENEVAL_SETS
        ),
    log:
        f"{LOGS}/mt-geneval/inputs/{{prompt}}.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/inputs.py"


rule mt_geneval_score:
    input:
        translations=f"{RESULTS}/mt-geneval/translations/{{system}}/{{prompt}}.jsonl",
        data=f"{RESULTS}/mt-geneval/data.parquet",
    output:
        decisions=f"{RESULTS}/mt-geneval/items/{{system}}/{{prompt}}.parquet",
        decisions_csv=f"{RESULTS}/mt-geneval/items/{{system}}/{{prompt}}.csv",
        summary=f"{RESULTS}/mt-geneval/items/{{system}}/{{prompt}}.json",
    params:
        code=stage_code("gendermt.benchmarks.mt_geneval.evaluate"),
        metrics=MT_GENEVAL.get("metrics", []),
        options=MT_GENEVAL_METRIC_OPTIONS,
        tokenize=bleu_tokenizers(),
    log:
        f"{LOGS}/mt-geneval/score/{{system}}/{{prompt}}.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/score.py"


rule mt_geneval_tables:
    input:
        decisions=[r["path"] for r in MT_GENEVAL_RUNS],
        summaries=[r["summary"] for r in MT_GENEVAL_RUNS],
    output:
        accuracy=table_report(
            f"{RESULTS}/mt-geneval/tables/accuracy.csv",
            caption="report/accuracy.rst",
            category="MT-GenEval",
            subcategory="Tables",
        ),
        accuracy_md=f"{RESULTS}/mt-geneval/tables/accuracy.md",
        paper=table_report(
            f"{RESULTS}/mt-geneval/tables/paper.csv",
            caption="report/paper.rst",
            category="MT-GenEval",
            subcategory="Tables",
        ),
        paper_md=f"{RESULTS}/mt-geneval/tables/paper.md",
        quality=table_report(
            f"{RESULTS}/mt-geneval/tables/quality.csv",
            caption="report/quality.rst",
            category="MT-GenEval",
            subcategory="Tables",
        ),
        quality_md=f"{RESULTS}/mt-geneval/tables/quality.md",
        summary=table_report(
            f"{RESULTS}/mt-geneval/tables/summary.csv",
            caption="report/summary.rst",
            category="MT-GenEval",
            subcategory="Tables",
        ),
        summary_md=f"{RESULTS}/mt-geneval/tables/summary.md",
    params:
        code=stage_code("gendermt.benchmarks.mt_geneval.tables"),
        runs=MT_GENEVAL_RUNS,
    log:
        f"{LOGS}/mt-geneval/tables.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/tables.py"


rule mt_geneval_figures:
    input:
        accuracy=f"{RESULTS}/mt-geneval/tables/accuracy.csv",
        # the runs below the clean-share floor (copy-source) are drawn as low quality
        checks=output_checks_table("mt-geneval"),
        # error bars where the workflow computes the intervals (optional)
        intervals=optional_intervals("mt-geneval"),
    output:
        png=figure_report(
            f"{RESULTS}/mt-geneval/figures/accuracy.png",
            caption="report/figure.rst",
            category="MT-GenEval",
            subcategory="Figures",
        ),
        pdf=f"{RESULTS}/mt-geneval/figures/accuracy.pdf",
    params:
        code=stage_code("gendermt.benchmarks.mt_geneval.figures"),
        kinds=system_kinds(MT_GENEVAL.get("systems", [])),
        quality_floors=config.get("scorecard", {}).get("quality_floors", {}),
    log:
        f"{LOGS}/mt-geneval/figures.log",
    conda:
        env_file("plot.yaml")
    script:
        "scripts/figures.py"


# The headline figures' intervals and paired tests over counterfactual pairs and contextual
# items (gendermt.benchmarks.mt_geneval.intervals).
localrules: mt_geneval_intervals


rule mt_geneval_intervals:
    input:
        decisions=[r["path"] for r in MT_GENEVAL_RUNS],
        # the references of BLEU over all segments (bleu_all)
        data=f"{RESULTS}/mt-geneval/data.parquet",
    output:
        **interval_outputs("mt-geneval", "MT-GenEval"),
    params:
        code=stage_code(
            "gendermt.benchmarks.mt_geneval.intervals",
            "gendermt.benchmarks.mt_geneval.tables",
            "gendermt.analysis.intervals",
            "gendermt.analysis.resample",
        ),
        runs=[{k: r[k] for k in ("system", "prompt", "path")} for r in MT_GENEVAL_RUNS],
        bootstrap=statistics_settings().get("bootstrap", {}),
        # BLEU as the scoring jobs compute it (only where BLEU is among the metrics)
        bleu="bleu" in MT_GENEVAL.get("metrics", []),
        options=MT_GENEVAL_METRIC_OPTIONS,
        tokenize=bleu_tokenizers(),
    log:
        f"{LOGS}/mt-geneval/intervals.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/intervals.py"
