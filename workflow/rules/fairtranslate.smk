# FairTranslate (en→fr): the published dataset → data.parquet, then the paper's tables and
# figures from every system × prompt's scores.


FAIRTRANSLATE = BENCHMARKS.get("fairtranslate", {})
# The local dataset is an input (replacing it reruns everything); data read from the Hub is not.
FAIRTRANSLATE_RAW = [
    path for path in [FAIRTRANSLATE.get("data", {}).get("path")] if path is not None
]
FAIRTRANSLATE_SCORES = score_files("fairtranslate") if FAIRTRANSLATE else []

if FAIRTRANSLATE:
    TARGETS.extend(
        expand(
            "results/fairtranslate/tables/{table}.csv",
            table=["by_gender", "by_stereotype", "by_ambiguity", "anova", "dataset"],
        )
        + expand("results/fairtranslate/figures/score_by_gender.{ext}", ext=["png", "pdf"])
    )


rule fairtranslate_data:
    input:
        FAIRTRANSLATE_RAW,
    output:
        data="results/fairtranslate/data.parquet",
        provenance="results/fairtranslate/data.json",
    params:
        code=code_fingerprint("gendermt.benchmarks.fairtranslate.data"),
        source=FAIRTRANSLATE.get("data"),
    log:
        "logs/fairtranslate/data.log",
    conda:
        "../../envs/core.yaml"
    script:
        "../scripts/fairtranslate_data.py"


rule fairtranslate_tables:
    input:
        data="results/fairtranslate/data.parquet",
        scores=FAIRTRANSLATE_SCORES,
    output:
        by_gender=report(
            "results/fairtranslate/tables/by_gender.csv",
            caption="../report/fairtranslate_by_gender.rst",
            category="FairTranslate",
            subcategory="Tables",
        ),
        by_gender_md="results/fairtranslate/tables/by_gender.md",
        by_stereotype=report(
            "results/fairtranslate/tables/by_stereotype.csv",
            caption="../report/fairtranslate_by_category.rst",
            category="FairTranslate",
            subcategory="Tables",
        ),
        by_stereotype_md="results/fairtranslate/tables/by_stereotype.md",
        by_ambiguity=report(
            "results/fairtranslate/tables/by_ambiguity.csv",
            caption="../report/fairtranslate_by_category.rst",
            category="FairTranslate",
            subcategory="Tables",
        ),
        by_ambiguity_md="results/fairtranslate/tables/by_ambiguity.md",
        anova=report(
            "results/fairtranslate/tables/anova.csv",
            caption="../report/fairtranslate_anova.rst",
            category="FairTranslate",
            subcategory="Tables",
        ),
        anova_md="results/fairtranslate/tables/anova.md",
        dataset=report(
            "results/fairtranslate/tables/dataset.csv",
            caption="../report/fairtranslate_dataset.rst",
            category="FairTranslate",
            subcategory="Tables",
        ),
        dataset_md="results/fairtranslate/tables/dataset.md",
    params:
        code=code_fingerprint("gendermt.benchmarks.fairtranslate.tables"),
        systems=FAIRTRANSLATE.get("systems"),
        prompts=FAIRTRANSLATE.get("prompts"),
        metrics=FAIRTRANSLATE.get("metrics"),
    log:
        "logs/fairtranslate/tables.log",
    benchmark:
        "results/benchmarks/fairtranslate/tables.tsv"
    conda:
        "../../envs/core.yaml"
    script:
        "../scripts/fairtranslate_tables.py"


rule fairtranslate_figures:
    input:
        data="results/fairtranslate/data.parquet",
        scores=FAIRTRANSLATE_SCORES,
    output:
        png=report(
            "results/fairtranslate/figures/score_by_gender.png",
            caption="../report/fairtranslate_score_by_gender.rst",
            category="FairTranslate",
            subcategory="Figures",
        ),
        pdf="results/fairtranslate/figures/score_by_gender.pdf",
    params:
        code=code_fingerprint("gendermt.benchmarks.fairtranslate.figures"),
        systems=FAIRTRANSLATE.get("systems"),
        prompts=FAIRTRANSLATE.get("prompts"),
        metrics=FAIRTRANSLATE.get("metrics"),
    log:
        "logs/fairtranslate/figures.log",
    conda:
        "../../envs/plot.yaml"
    script:
        "../scripts/fairtranslate_figures.py"
