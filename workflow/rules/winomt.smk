# WinoMT (Stanovsky et al. 2019): en.txt (+ pro/anti subsets) → data.parquet; each system's
# translations per target language (the prompts are named by it: fr, es, it, de) → the
# entity's gender and WinoMT's metrics; then a table and a figure comparing systems.


WINOMT = BENCHMARKS.get("winomt", {})
WINOMT_DATA = WINOMT.get("data", {})
WINOMT_RAW = [WINOMT_DATA[k] for k in ("path", "pro", "anti") if k in WINOMT_DATA]
WINOMT_SYSTEMS = WINOMT.get("systems", [])
# every reader scores every run; the first is the headline (summary table, figure, scorecard)
WINOMT_READERS = WINOMT.get("readers", ["corrected"])
WINOMT_PUBLISHED = WINOMT.get("published", "resources/winomt/stanovsky2019_table2.csv")
WINOMT_SUMMARIES = (
    expand(
        f"{RESULTS}/winomt/gender/{{reader}}/{{system}}/{{prompt}}.json",
        reader=WINOMT_READERS[:1],
        system=WINOMT_SYSTEMS,
        prompt=WINOMT.get("prompts", []),
    )
    if WINOMT
    else []
)
WINOMT_ALL_SUMMARIES = (
    expand(
        f"{RESULTS}/winomt/gender/{{reader}}/{{system}}/{{prompt}}.json",
        reader=WINOMT_READERS,
        system=WINOMT_SYSTEMS,
        prompt=WINOMT.get("prompts", []),
    )
    if WINOMT
    else []
)

if WINOMT:
    TARGETS.extend(
        [f"{RESULTS}/winomt/tables/summary.csv", f"{RESULTS}/winomt/tables/readers.csv"]
        + expand(f"{RESULTS}/winomt/figures/systems.{{ext}}", ext=["png", "pdf"])
    )


localrules: winomt_data, winomt_tables, winomt_figures, winomt_readers


rule winomt_data:
    input:
        provenanced(WINOMT_RAW),
    output:
        data=f"{RESULTS}/winomt/data.parquet",
        provenance=f"{RESULTS}/winomt/data.json",
    params:
        code=code_fingerprint("gendermt.benchmarks.winomt.data"),
        # path, size and sha256 of what it reads: a changed source reruns it
        sources=source_identity(WINOMT_RAW),
        source=WINOMT_DATA,
    log:
        f"{LOGS}/winomt/data.log",
    conda:
        "../../envs/core.yaml"
    script:
        "../scripts/winomt_data.py"


# One job per target language: spaCy is loaded once, and each system's file is aligned
# once per reader's tokenisation (each file on its own: a system's links never depend on
# which other systems the study has).
rule winomt_gender:
    input:
        translations=expand(
            f"{RESULTS}/winomt/translations/{{system}}/{{{{prompt}}}}.jsonl", system=WINOMT_SYSTEMS
        ),
        data=f"{RESULTS}/winomt/data.parquet",
    output:
        tables=expand(
            f"{RESULTS}/winomt/gender/{{reader}}/{{system}}/{{{{prompt}}}}.parquet",
            reader=WINOMT_READERS,
            system=WINOMT_SYSTEMS,
        ),
        csvs=expand(
            f"{RESULTS}/winomt/gender/{{reader}}/{{system}}/{{{{prompt}}}}.csv",
            reader=WINOMT_READERS,
            system=WINOMT_SYSTEMS,
        ),
        summaries=expand(
            f"{RESULTS}/winomt/gender/{{reader}}/{{system}}/{{{{prompt}}}}.json",
            reader=WINOMT_READERS,
            system=WINOMT_SYSTEMS,
        ),
    params:
        code=code_fingerprint("gendermt.benchmarks.winomt.evaluate"),
        alignment=WINOMT.get("alignment", {}),
        readers=WINOMT_READERS,
        systems=WINOMT_SYSTEMS,
    log:
        f"{LOGS}/winomt/gender/{{prompt}}.log",
    benchmark:
        f"{RESULTS}/benchmarks/winomt/gender/{{prompt}}.tsv"
    conda:
        "../../envs/winomt.yaml"
    script:
        "../scripts/winomt_gender.py"


rule winomt_tables:
    input:
        summaries=WINOMT_SUMMARIES,
    output:
        csv=table_report(
            f"{RESULTS}/winomt/tables/summary.csv",
            caption="../report/winomt_summary.rst",
            category="WinoMT",
            subcategory="Tables",
        ),
        md=f"{RESULTS}/winomt/tables/summary.md",
    params:
        code=code_fingerprint("gendermt.benchmarks.winomt.tables"),
        systems=WINOMT.get("systems"),
        langs=WINOMT.get("prompts"),
    log:
        f"{LOGS}/winomt/tables.log",
    conda:
        "../../envs/core.yaml"
    script:
        "../scripts/winomt_tables.py"


rule winomt_readers:
    input:
        summaries=WINOMT_ALL_SUMMARIES,
        published=WINOMT_PUBLISHED,
    output:
        csv=table_report(
            f"{RESULTS}/winomt/tables/readers.csv",
            caption="../report/winomt_readers.rst",
            category="WinoMT",
            subcategory="Tables",
        ),
        md=f"{RESULTS}/winomt/tables/readers.md",
    params:
        code=code_fingerprint("gendermt.benchmarks.winomt.tables"),
        systems=WINOMT_SYSTEMS,
        langs=WINOMT.get("prompts"),
        readers=WINOMT_READERS,
    log:
        f"{LOGS}/winomt/readers.log",
    conda:
        "../../envs/core.yaml"
    script:
        "../scripts/winomt_readers.py"


rule winomt_figures:
    input:
        summaries=WINOMT_SUMMARIES,
    output:
        png=figure_report(
            f"{RESULTS}/winomt/figures/systems.png",
            caption="../report/winomt_systems.rst",
            category="WinoMT",
            subcategory="Figures",
        ),
        pdf=f"{RESULTS}/winomt/figures/systems.pdf",
    params:
        code=code_fingerprint("gendermt.benchmarks.winomt.figures"),
        systems=WINOMT.get("systems"),
        langs=WINOMT.get("prompts"),
    log:
        f"{LOGS}/winomt/figures.log",
    conda:
        "../../envs/plot.yaml"
    script:
        "../scripts/winomt_figures.py"
