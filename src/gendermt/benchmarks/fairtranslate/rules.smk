# FairTranslate (en→fr): the published dataset → data.parquet, then the paper's tables and
# figures from every system × prompt's scores.
from gendermt.benchmarks.fairtranslate import config as fairtranslate_config


FAIRTRANSLATE = benchmark_spec("fairtranslate")
# The local dataset is an input (replacing it reruns everything); data read from the Hub is not.
FAIRTRANSLATE_RAW = [
    path for path in [FAIRTRANSLATE.get("data", {}).get("path")] if path is not None
]
# Score files as records ({system, prompt, path}; COMET's file of all runs: {path}): the
# stages take each run's system and prompt from its record, never from its path.
FAIRTRANSLATE_SCORE_RECORDS = score_records("fairtranslate")
FAIRTRANSLATE_SCORES = [r["path"] for r in FAIRTRANSLATE_SCORE_RECORDS]
# per-item scores (and the data, for example_id) give the scorecard's gaps their CIs
declare_scorecard_inputs(
    "fairtranslate",
    {
        "score_records": FAIRTRANSLATE_SCORE_RECORDS,
        "data": [f"{RESULTS}/fairtranslate/data.parquet"],
    },
)
FAIRTRANSLATE_PAPER_TABLES = ["1", "2", "3", "6", "7", "8", "9"]
# The authors' clean_outlier row filter (COMET > threshold for every listed system), with
# its defaults filled in; it needs COMET among the metrics.
FAIRTRANSLATE_CLEAN_OUTLIER = (
    fairtranslate_config.clean_outlier(FAIRTRANSLATE)
)

declare_targets(
    "fairtranslate",
    expand(
        f"{RESULTS}/fairtranslate/tables/{{table}}.csv",
        table=["by_gender", "by_stereotype", "by_ambiguity", "anova", "dataset"],
    )
    + expand(
        f"{RESULTS}/fairtranslate/tables/{{table}}.csv",
        table=["gender_tests", "gender_means_ci", "clean_outlier"],
    )
    + expand(
        f"{RESULTS}/fairtranslate/tables/paper_table{{n}}.{{ext}}",
        n=FAIRTRANSLATE_PAPER_TABLES,
        ext=["csv", "md", "tex"],
    )
    + expand(f"{RESULTS}/fairtranslate/figures/score_by_gender.{{ext}}", ext=["png", "pdf"])
)


# the explorer (report.smk): every variant with each system's output per prompt, the
# occupation form read from it, its indicators, "they" and sentence scores
declare_explorer(
    "fairtranslate",
    "gendermt.benchmarks.fairtranslate.explorer",
    label="FairTranslate",
    inputs={
        "analysed": f"{RESULTS}/fairtranslate/inclusive/outputs.parquet",
        "data": f"{RESULTS}/fairtranslate/data.parquet",
        "scores": [r for r in FAIRTRANSLATE_SCORE_RECORDS if "system" in r],
        "systems": FAIRTRANSLATE["systems"],
        "prompts": FAIRTRANSLATE["prompts"],
    },
)


localrules: fairtranslate_data, fairtranslate_tables, fairtranslate_figures, fairtranslate_inclusive_tables, fairtranslate_inclusive_figures


rule fairtranslate_data:
    input:
        provenanced(FAIRTRANSLATE_RAW),
    output:
        data=f"{RESULTS}/fairtranslate/data.parquet",
        provenance=f"{RESULTS}/fairtranslate/data.json",
    params:
        code=stage_code("gendermt.benchmarks.fairtranslate.data"),
        # path, size and sha256 of what it reads: a changed source reruns it
        data_sources=data_source_identity(FAIRTRANSLATE_RAW),
        source=FAIRTRANSLATE.get("data"),
    log:
        f"{LOGS}/fairtranslate/data.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/data.py"


rule fairtranslate_tables:
    input:
        data=f"{RESULTS}/fairtranslate/data.parquet",
        scores=FAIRTRANSLATE_SCORES,
    output:
        by_gender=table_report(
            f"{RESULTS}/fairtranslate/tables/by_gender.csv",
            caption="report/by_gender.rst",
            category="FairTranslate",
            subcategory="Tables",
        ),
        by_gender_md=f"{RESULTS}/fairtranslate/tables/by_gender.md",
        by_stereotype=table_report(
            f"{RESULTS}/fairtranslate/tables/by_stereotype.csv",
            caption="report/by_category.rst",
            category="FairTranslate",
            subcategory="Tables",
        ),
        by_stereotype_md=f"{RESULTS}/fairtranslate/tables/by_stereotype.md",
        by_ambiguity=table_report(
            f"{RESULTS}/fairtranslate/tables/by_ambiguity.csv",
            caption="report/by_category.rst",
            category="FairTranslate",
            subcategory="Tables",
        ),
        by_ambiguity_md=f"{RESULTS}/fairtranslate/tables/by_ambiguity.md",
        anova=table_report(
            f"{RESULTS}/fairtranslate/tables/anova.csv",
            caption="report/anova.rst",
            category="FairTranslate",
            subcategory="Tables",
        ),
        anova_md=f"{RESULTS}/fairtranslate/tables/anova.md",
        dataset=table_report(
            f"{RESULTS}/fairtranslate/tables/dataset.csv",
            caption="report/dataset.rst",
            category="FairTranslate",
            subcategory="Tables",
        ),
        dataset_md=f"{RESULTS}/fairtranslate/tables/dataset.md",
        gender_tests=table_report(
            f"{RESULTS}/fairtranslate/tables/gender_tests.csv",
            caption="report/gender_tests.rst",
            category="FairTranslate",
            subcategory="Tables",
        ),
        gender_tests_md=f"{RESULTS}/fairtranslate/tables/gender_tests.md",
        gender_means_ci=table_report(
            f"{RESULTS}/fairtranslate/tables/gender_means_ci.csv",
            caption="report/gender_means_ci.rst",
            category="FairTranslate",
            subcategory="Tables",
        ),
        gender_means_ci_md=f"{RESULTS}/fairtranslate/tables/gender_means_ci.md",
        clean_outlier=table_report(
            f"{RESULTS}/fairtranslate/tables/clean_outlier.csv",
            caption="report/clean_outlier.rst",
            category="FairTranslate",
            subcategory="Tables",
        ),
        clean_outlier_md=f"{RESULTS}/fairtranslate/tables/clean_outlier.md",
        paper_table1=table_report(
            f"{RESULTS}/fairtranslate/tables/paper_table1.csv",
            caption="report/paper_tables.rst",
            category="FairTranslate",
            subcategory="Paper tables",
        ),
        paper_table2=table_report(
            f"{RESULTS}/fairtranslate/tables/paper_table2.csv",
            caption="report/paper_tables.rst",
            category="FairTranslate",
            subcategory="Paper tables",
        ),
        paper_table3=table_report(
            f"{RESULTS}/fairtranslate/tables/paper_table3.csv",
            caption="report/paper_tables.rst",
            category="FairTranslate",
            subcategory="Paper tables",
        ),
        paper_table6=table_report(
            f"{RESULTS}/fairtranslate/tables/paper_table6.csv",
            caption="report/paper_tables.rst",
            category="FairTranslate",
            subcategory="Paper tables",
        ),
        paper_table7=table_report(
            f"{RESULTS}/fairtranslate/tables/paper_table7.csv",
            caption="report/paper_tables.rst",
            category="FairTranslate",
            subcategory="Paper tables",
        ),
        paper_table8=table_report(
            f"{RESULTS}/fairtranslate/tables/paper_table8.csv",
            caption="report/paper_tables.rst",
            category="FairTranslate",
            subcategory="Paper tables",
        ),
        paper_table9=table_report(
            f"{RESULTS}/fairtranslate/tables/paper_table9.csv",
            caption="report/paper_tables.rst",
            category="FairTranslate",
            subcategory="Paper tables",
        ),
        # Markdown and LaTeX of each paper table, written beside its CSV
        paper_md_tex=expand(
            f"{RESULTS}/fairtranslate/tables/paper_table{{n}}.{{ext}}",
            n=FAIRTRANSLATE_PAPER_TABLES,
            ext=["md", "tex"],
        ),
    params:
        code=stage_code("gendermt.benchmarks.fairtranslate.tables"),
        runs=FAIRTRANSLATE_SCORE_RECORDS,
        systems=FAIRTRANSLATE.get("systems"),
        prompts=FAIRTRANSLATE.get("prompts"),
        metrics=FAIRTRANSLATE.get("metrics"),
        bootstrap=statistics_settings().get("bootstrap", {}),
        clean_outlier=FAIRTRANSLATE_CLEAN_OUTLIER,
        kinds=system_kinds(FAIRTRANSLATE.get("systems", [])),
        # the outputs' cleaning before scoring: in the tables' signatures
        postprocess=FAIRTRANSLATE.get("postprocess", []),
    log:
        f"{LOGS}/fairtranslate/tables.log",
    benchmark:
        f"{RESULTS}/benchmarks/fairtranslate/tables.tsv"
    conda:
        env_file("core.yaml")
    script:
        "scripts/tables.py"


rule fairtranslate_figures:
    input:
        data=f"{RESULTS}/fairtranslate/data.parquet",
        scores=FAIRTRANSLATE_SCORES,
    output:
        png=figure_report(
            f"{RESULTS}/fairtranslate/figures/score_by_gender.png",
            caption="report/score_by_gender.rst",
            category="FairTranslate",
            subcategory="Figures",
        ),
        pdf=f"{RESULTS}/fairtranslate/figures/score_by_gender.pdf",
    params:
        code=stage_code("gendermt.benchmarks.fairtranslate.figures"),
        runs=FAIRTRANSLATE_SCORE_RECORDS,
        systems=FAIRTRANSLATE.get("systems"),
        prompts=FAIRTRANSLATE.get("prompts"),
        metrics=FAIRTRANSLATE.get("metrics"),
        clean_outlier=FAIRTRANSLATE_CLEAN_OUTLIER,
    log:
        f"{LOGS}/fairtranslate/figures.log",
    conda:
        env_file("plot.yaml")
    script:
        "scripts/figures.py"


# --- Inclusive-language analyses (§7, §8, appendices A, E, F): every system × prompt's
# translations → normalised outputs, indicators, occupation forms, singular "they",
# word counts; then their figures.
FAIRTRANSLATE_TRANSLATION_RECORDS = (
    run_paths(f"{RESULTS}/{{benchmark}}/translations/{{system}}/{{prompt}}.jsonl", "fairtranslate")
)
FAIRTRANSLATE_TRANSLATIONS = [r["path"] for r in FAIRTRANSLATE_TRANSLATION_RECORDS]
FAIRTRANSLATE_INCLUSIVE_TABLES = [
    "normalization",
    "normalized_outputs",
    "inclusive_indicators",
    "occupation_forms",
    "they_pronouns",
    "word_counts",
    "classifier_modes",
    "postprocess_modes",
]
FAIRTRANSLATE_INCLUSIVE_COMET = (
    [f"{RESULTS}/fairtranslate/scores/comet.parquet"]
    if FAIRTRANSLATE_CLEAN_OUTLIER and FAIRTRANSLATE_CLEAN_OUTLIER["enabled"]
    else []
)
FAIRTRANSLATE_INCLUSIVE_FIGURES = ["occupation_forms", "they_by_prompt", "they_by_ambiguity"]

declare_targets(
    "fairtranslate",
    expand(
        f"{RESULTS}/fairtranslate/tables/{{table}}.{{ext}}",
        table=FAIRTRANSLATE_INCLUSIVE_TABLES,
        ext=["csv", "md"],
    )
    + expand(
        f"{RESULTS}/fairtranslate/figures/{{figure}}.{{ext}}",
        figure=FAIRTRANSLATE_INCLUSIVE_FIGURES,
        ext=["png", "pdf"],
    )
)


rule fairtranslate_inclusive_tables:
    input:
        data=f"{RESULTS}/fairtranslate/data.parquet",
        translations=FAIRTRANSLATE_TRANSLATIONS,
        # the requests of each run (the echo check of singular "they")
        requests=sorted(
            {f"{RESULTS}/fairtranslate/inputs/{r['prompt']}.jsonl"
             for r in FAIRTRANSLATE_TRANSLATION_RECORDS}
        ),
        # the authors' COMET filter of the singular-"they" rows (classifier_modes)
        comet=FAIRTRANSLATE_INCLUSIVE_COMET,
    output:
        analysed=f"{RESULTS}/fairtranslate/inclusive/outputs.parquet",
        normalization=table_report(
            f"{RESULTS}/fairtranslate/tables/normalization.csv",
            caption="report/normalization.rst",
            category="FairTranslate",
            subcategory="Inclusive language",
        ),
        normalization_md=f"{RESULTS}/fairtranslate/tables/normalization.md",
        normalized_outputs=table_report(
            f"{RESULTS}/fairtranslate/tables/normalized_outputs.csv",
            caption="report/normalized_outputs.rst",
            category="FairTranslate",
            subcategory="Inclusive language",
        ),
        normalized_outputs_md=f"{RESULTS}/fairtranslate/tables/normalized_outputs.md",
        inclusive_indicators=table_report(
            f"{RESULTS}/fairtranslate/tables/inclusive_indicators.csv",
            caption="report/inclusive_indicators.rst",
            category="FairTranslate",
            subcategory="Inclusive language",
        ),
        inclusive_indicators_md=f"{RESULTS}/fairtranslate/tables/inclusive_indicators.md",
        occupation_forms=table_report(
            f"{RESULTS}/fairtranslate/tables/occupation_forms.csv",
            caption="report/occupation_forms_table.rst",
            category="FairTranslate",
            subcategory="Inclusive language",
        ),
        occupation_forms_md=f"{RESULTS}/fairtranslate/tables/occupation_forms.md",
        they_pronouns=table_report(
            f"{RESULTS}/fairtranslate/tables/they_pronouns.csv",
            caption="report/they_pronouns.rst",
            category="FairTranslate",
            subcategory="Inclusive language",
        ),
        they_pronouns_md=f"{RESULTS}/fairtranslate/tables/they_pronouns.md",
        word_counts=table_report(
            f"{RESULTS}/fairtranslate/tables/word_counts.csv",
            caption="report/word_counts.rst",
            category="FairTranslate",
            subcategory="Inclusive language",
        ),
        word_counts_md=f"{RESULTS}/fairtranslate/tables/word_counts.md",
        classifier_modes=table_report(
            f"{RESULTS}/fairtranslate/tables/classifier_modes.csv",
            caption="report/classifier_modes.rst",
            category="FairTranslate",
            subcategory="Inclusive language",
        ),
        classifier_modes_md=f"{RESULTS}/fairtranslate/tables/classifier_modes.md",
        postprocess_modes=table_report(
            f"{RESULTS}/fairtranslate/tables/postprocess_modes.csv",
            caption="report/postprocess_modes.rst",
            category="FairTranslate",
            subcategory="Inclusive language",
        ),
        postprocess_modes_md=f"{RESULTS}/fairtranslate/tables/postprocess_modes.md",
    params:
        code=stage_code("gendermt.benchmarks.fairtranslate.inclusive_tables"),
        # each run with the requests it answered: echoed instructions are their own class
        runs=[
            {**r, "inputs": f"{RESULTS}/fairtranslate/inputs/{r['prompt']}.jsonl"}
            for r in FAIRTRANSLATE_TRANSLATION_RECORDS
        ],
        systems=FAIRTRANSLATE.get("systems"),
        prompts=FAIRTRANSLATE.get("prompts"),
        clean_outlier=FAIRTRANSLATE_CLEAN_OUTLIER,
        # postprocess_modes: the run's cleaning (recorded) and its hypothesis normaliser
        postprocess=FAIRTRANSLATE.get("postprocess", []),
        normalize=FAIRTRANSLATE.get("normalize_hypotheses"),
    log:
        f"{LOGS}/fairtranslate/inclusive_tables.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/inclusive_tables.py"


rule fairtranslate_inclusive_figures:
    input:
        occupation_forms=f"{RESULTS}/fairtranslate/tables/occupation_forms.csv",
        they_pronouns=f"{RESULTS}/fairtranslate/tables/they_pronouns.csv",
    output:
        occupation_forms_png=figure_report(
            f"{RESULTS}/fairtranslate/figures/occupation_forms.png",
            caption="report/occupation_forms.rst",
            category="FairTranslate",
            subcategory="Inclusive language",
        ),
        occupation_forms_pdf=f"{RESULTS}/fairtranslate/figures/occupation_forms.pdf",
        they_by_prompt_png=figure_report(
            f"{RESULTS}/fairtranslate/figures/they_by_prompt.png",
            caption="report/they_by_prompt.rst",
            category="FairTranslate",
            subcategory="Inclusive language",
        ),
        they_by_prompt_pdf=f"{RESULTS}/fairtranslate/figures/they_by_prompt.pdf",
        they_by_ambiguity_png=figure_report(
            f"{RESULTS}/fairtranslate/figures/they_by_ambiguity.png",
            caption="report/they_by_ambiguity.rst",
            category="FairTranslate",
            subcategory="Inclusive language",
        ),
        they_by_ambiguity_pdf=f"{RESULTS}/fairtranslate/figures/they_by_ambiguity.pdf",
    params:
        code=stage_code("gendermt.benchmarks.fairtranslate.inclusive_figures"),
        systems=FAIRTRANSLATE.get("systems"),
        prompts=FAIRTRANSLATE.get("prompts"),
    log:
        f"{LOGS}/fairtranslate/inclusive_figures.log",
    conda:
        env_file("plot.yaml")
    script:
        "scripts/inclusive_figures.py"
