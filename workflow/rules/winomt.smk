# WinoMT (Stanovsky et al. 2019): en.txt (+ pro/anti subsets) → data.parquet; each system's
# translations per target language (the prompts are named by it: fr, es, it, de) → the
# entity's gender and WinoMT's metrics; then a table and a figure comparing systems.


WINOMT = BENCHMARKS.get("winomt", {})
WINOMT_DATA = WINOMT.get("data", {})
WINOMT_RAW = [WINOMT_DATA[k] for k in ("path", "pro", "anti") if k in WINOMT_DATA]
WINOMT_SUMMARIES = (
    expand(
        "results/winomt/gender/{system}/{prompt}.json",
        system=WINOMT.get("systems", []),
        prompt=WINOMT.get("prompts", []),
    )
    if WINOMT
    else []
)

if WINOMT:
    TARGETS.extend(
        ["results/winomt/tables/summary.csv"]
        + expand("results/winomt/figures/systems.{ext}", ext=["png", "pdf"])
    )


localrules: winomt_data, winomt_tables, winomt_figures


rule winomt_data:
    input:
        WINOMT_RAW,
    output:
        data="results/winomt/data.parquet",
        provenance="results/winomt/data.json",
    params:
        code=code_fingerprint("gendermt.benchmarks.winomt.data"),
        source=WINOMT_DATA,
    log:
        "logs/winomt/data.log",
    conda:
        "../../envs/core.yaml"
    script:
        "../scripts/winomt_data.py"


rule winomt_gender:
    input:
        translations="results/winomt/translations/{system}/{prompt}.jsonl",
        data="results/winomt/data.parquet",
    output:
        table="results/winomt/gender/{system}/{prompt}.parquet",
        csv="results/winomt/gender/{system}/{prompt}.csv",
        summary="results/winomt/gender/{system}/{prompt}.json",
    params:
        code=code_fingerprint("gendermt.benchmarks.winomt.evaluate"),
        alignment=WINOMT.get("alignment", {}),
    log:
        "logs/winomt/gender/{system}/{prompt}.log",
    benchmark:
        "results/benchmarks/winomt/gender/{system}/{prompt}.tsv"
    conda:
        "../../envs/winomt.yaml"
    script:
        "../scripts/winomt_gender.py"


rule winomt_tables:
    input:
        summaries=WINOMT_SUMMARIES,
    output:
        csv=report(
            "results/winomt/tables/summary.csv",
            caption="../report/winomt_summary.rst",
            category="WinoMT",
            subcategory="Tables",
        ),
        md="results/winomt/tables/summary.md",
    params:
        code=code_fingerprint("gendermt.benchmarks.winomt.tables"),
        systems=WINOMT.get("systems"),
        langs=WINOMT.get("prompts"),
    log:
        "logs/winomt/tables.log",
    conda:
        "../../envs/core.yaml"
    script:
        "../scripts/winomt_tables.py"


rule winomt_figures:
    input:
        summaries=WINOMT_SUMMARIES,
    output:
        png=report(
            "results/winomt/figures/systems.png",
            caption="../report/winomt_systems.rst",
            category="WinoMT",
            subcategory="Figures",
        ),
        pdf="results/winomt/figures/systems.pdf",
    params:
        code=code_fingerprint("gendermt.benchmarks.winomt.figures"),
        systems=WINOMT.get("systems"),
        langs=WINOMT.get("prompts"),
    log:
        "logs/winomt/figures.log",
    conda:
        "../../envs/plot.yaml"
    script:
        "../scripts/winomt_figures.py"
