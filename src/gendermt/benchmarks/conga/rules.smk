# ConGA on gENder-IT (en→it): the published table → data.parquet; every system's outputs →
# Italian annotations (annotators' files, annotated dataset translations, or an LLM
# annotator) → entity-level categories and the per-sentence log → Tables 3, 5, 6 and the
# A→M vs A→F figure.
from gendermt.benchmarks.conga import config as conga_config
from gendermt.benchmarks.conga.annotator import load_template as conga_load_template
from gendermt.scoring.output_quality import clean_share_floor

CONGA = benchmark_spec("conga")
CONGA_ANNOTATIONS = CONGA.get("annotations", {})
CONGA_TAGS = CONGA.get("tags", {})
CONGA_DATA = dict(CONGA.get("data", {}))
CONGA_ALTERNATIVES = [
    p for p in [CONGA_ANNOTATIONS.get("alternatives")] if p is not None
]
CONGA_ANNOTATOR = None
CONGA_ANNOTATOR_GPUS = 0
if CONGA_ANNOTATIONS.get("annotator"):
    _spec = CONGA_ANNOTATIONS["annotator"]
    CONGA_ANNOTATOR = {
        "system": _spec["system"],
        "settings": SYSTEMS[_spec["system"]],
        "template": conga_load_template(
            _spec.get("templates", "src/gendermt/benchmarks/conga/prompts/annotate.yaml"),
            _spec.get("prompt", "conga_rules"),
        ),
    }
    CONGA_ANNOTATOR_GPUS = system_gpus(SYSTEMS[_spec["system"]])
# The annotation stage, gendermt.translation.cache (the script reads the request cache folder from it)
# and the annotator's backend, if there is one.
CONGA_ANNOTATE_CODE = stage_code(
    "gendermt.benchmarks.conga.annotations",
    "gendermt.translation.cache",
    *backend_modules_of(*([CONGA_ANNOTATOR["system"]] if CONGA_ANNOTATOR else [])),
)
CONGA_SENTENCES = (
    expand(
        f"{RESULTS}/conga/sentences/{{system}}/{{prompt}}.csv",
        system=CONGA["systems"],
        prompt=CONGA["prompts"],
    )
)

declare_targets(
    "conga",
    expand(
        f"{RESULTS}/conga/tables/{{table}}.csv",
        table=["tags", "categories", "metrics", "coverage", "sentences"],
    )
    + expand(f"{RESULTS}/conga/figures/ambiguous_resolution.{{ext}}", ext=["png", "pdf"])
)


# the explorer (report.smk): every sentence with each system's output and its entities read
declare_explorer(
    "conga",
    "gendermt.benchmarks.conga.explorer",
    label="ConGA",
    inputs={
        "runs": [
            {
                "system": r["system"],
                "prompt": r["prompt"],
                "path": f"{RESULTS}/conga/sentences/{r['system']}/{r['prompt']}.csv",
            }
            for r in run_records("conga")
        ],
        "data": f"{RESULTS}/conga/data.parquet",
        "systems": CONGA["systems"],
    },
)


localrules: conga_data, conga_score, conga_tables, conga_figures


rule conga_data:
    input:
        provenanced(CONGA_DATA.get("path", [])),
    output:
        data=f"{RESULTS}/conga/data.parquet",
        provenance=f"{RESULTS}/conga/data.json",
    params:
        code=stage_code("gendermt.benchmarks.conga.data"),
        # path, size and sha256 of what it reads: a changed source reruns it
        data_sources=data_source_identity([CONGA_DATA["path"]] if CONGA_DATA else []),
        source=CONGA_DATA,
        tags=CONGA_TAGS.get("source", {}),
    log:
        f"{LOGS}/conga/data.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/data.py"


rule conga_annotate:
    input:
        translations=f"{RESULTS}/conga/translations/{{system}}/{{prompt}}.jsonl",
        data=f"{RESULTS}/conga/data.parquet",
        alternatives=CONGA_ALTERNATIVES,
        files=lambda wc: [f["path"] for f in conga_config.annotation_files(CONGA, wc.system, wc.prompt)],
    output:
        annotations=f"{RESULTS}/conga/annotations/{{system}}/{{prompt}}.jsonl",
        summary=f"{RESULTS}/conga/annotations/{{system}}/{{prompt}}.json",
    params:
        code=CONGA_ANNOTATE_CODE,
        files=lambda wc: conga_config.annotation_files(CONGA, wc.system, wc.prompt),
        annotator=CONGA_ANNOTATOR,
        target_tags=CONGA_TAGS.get("target", {}),
    resources:
        **node_resources("conga_annotate"),
        **gpu_resources(CONGA_ANNOTATOR_GPUS),
    log:
        f"{LOGS}/conga/annotate/{{system}}/{{prompt}}.log",
    benchmark:
        f"{RESULTS}/benchmarks/conga/annotate/{{system}}/{{prompt}}.tsv"
    conda:
        env_file("translate.yaml")
    script:
        "scripts/annotate.py"


rule conga_score:
    input:
        annotations=f"{RESULTS}/conga/annotations/{{system}}/{{prompt}}.jsonl",
        data=f"{RESULTS}/conga/data.parquet",
    output:
        entities=f"{RESULTS}/conga/entities/{{system}}/{{prompt}}.parquet",
        sentences=f"{RESULTS}/conga/sentences/{{system}}/{{prompt}}.csv",
        summary=f"{RESULTS}/conga/sentences/{{system}}/{{prompt}}.json",
    params:
        code=stage_code("gendermt.benchmarks.conga.evaluate"),
        source_tags=CONGA_TAGS.get("source", {}),
        target_tags=CONGA_TAGS.get("target", {}),
        denominator=CONGA.get("denominator", "tags"),
    log:
        f"{LOGS}/conga/score/{{system}}/{{prompt}}.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/score.py"


rule conga_tables:
    input:
        data=f"{RESULTS}/conga/data.parquet",
        sentences=CONGA_SENTENCES,
        # each run's clean share beside its figures (gendermt.scoring.output_quality)
        checks=f"{RESULTS}/conga/tables/output_checks.csv",
    output:
        tags=table_report(
            f"{RESULTS}/conga/tables/tags.csv",
            caption="report/tags.rst",
            category="ConGA",
            subcategory="Tables",
        ),
        tags_md=f"{RESULTS}/conga/tables/tags.md",
        categories=table_report(
            f"{RESULTS}/conga/tables/categories.csv",
            caption="report/categories.rst",
            category="ConGA",
            subcategory="Tables",
        ),
        categories_md=f"{RESULTS}/conga/tables/categories.md",
        metrics=table_report(
            f"{RESULTS}/conga/tables/metrics.csv",
            caption="report/metrics.rst",
            category="ConGA",
            subcategory="Tables",
        ),
        metrics_md=f"{RESULTS}/conga/tables/metrics.md",
        coverage=table_report(
            f"{RESULTS}/conga/tables/coverage.csv",
            caption="report/coverage.rst",
            category="ConGA",
            subcategory="Tables",
        ),
        coverage_md=f"{RESULTS}/conga/tables/coverage.md",
        sentences=table_report(
            f"{RESULTS}/conga/tables/sentences.csv",
            caption="report/sentences.rst",
            category="ConGA",
            subcategory="Tables",
        ),
    params:
        code=stage_code("gendermt.benchmarks.conga.tables"),
        systems=CONGA.get("systems"),
        prompts=CONGA.get("prompts"),
        source_tags=CONGA_TAGS.get("source", {}),
        denominator=CONGA.get("denominator", "tags"),
        floor=clean_share_floor(config.get("scorecard", {}).get("quality_floors"), "conga"),
        # with the denominator and source tags: the metrics table's signature
        target_tags=CONGA_TAGS.get("target", {}),
        annotator=CONGA_ANNOTATOR["system"] if CONGA_ANNOTATOR else None,
    log:
        f"{LOGS}/conga/tables.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/tables.py"


rule conga_figures:
    input:
        sentences=CONGA_SENTENCES,
    output:
        png=figure_report(
            f"{RESULTS}/conga/figures/ambiguous_resolution.png",
            caption="report/ambiguous_resolution.rst",
            category="ConGA",
            subcategory="Figures",
        ),
        pdf=f"{RESULTS}/conga/figures/ambiguous_resolution.pdf",
    params:
        code=stage_code("gendermt.benchmarks.conga.figures"),
        systems=CONGA.get("systems"),
        prompts=CONGA.get("prompts"),
    log:
        f"{LOGS}/conga/figures.log",
    conda:
        env_file("plot.yaml")
    script:
        "scripts/figures.py"
