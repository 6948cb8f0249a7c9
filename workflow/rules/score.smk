# Stage 4: all sacrebleu metrics of one translation file in one CPU job; COMET in a GPU job.
# Before them, the output checks of every translation file.


# Outputs that are not translations into the target language (the instruction echoed back,
# an answer in another language), counted per run of every benchmark
# (gendermt.scoring.output_checks); the scorecard marks runs below its clean-share floor.
declare_targets("output_checks", (f"{RESULTS}/{b}/tables/output_checks.csv" for b in BENCHMARK_CONFIG))


localrules: output_checks


rule output_checks:
    input:
        translations=translation_files_of,
        inputs=output_check_inputs_of,
    output:
        csv=table_report(
            f"{RESULTS}/{{benchmark}}/tables/output_checks.csv",
            caption="../report/output_checks.rst",
            category="Translation runs",
            subcategory="{benchmark}",
        ),
        md=f"{RESULTS}/{{benchmark}}/tables/output_checks.md",
    params:
        code=stage_code("gendermt.scoring.output_checks"),
        runs=output_check_records_of,
    log:
        f"{LOGS}/{{benchmark}}/output_checks.log",
    conda:
        "../../envs/core.yaml"
    script:
        "../scripts/output_checks.py"


localrules: score


rule score:
    input:
        translations=f"{RESULTS}/{{benchmark}}/translations/{{system}}/{{prompt}}.jsonl",
        data=f"{RESULTS}/{{benchmark}}/data.parquet",
    output:
        scores=f"{RESULTS}/{{benchmark}}/scores/{{system}}/{{prompt}}.parquet",
        summary=f"{RESULTS}/{{benchmark}}/scores/{{system}}/{{prompt}}.json",
    params:
        code=scoring_code("gendermt.scoring.score"),
        metrics=sacrebleu_metrics_of,
        options=metric_options,
        group_by=corpus_groups_of,
        tokenize=bleu_tokenizers(),
        normalize=hypothesis_normalization_of,
    log:
        f"{LOGS}/{{benchmark}}/score/{{system}}/{{prompt}}.log",
    benchmark:
        f"{RESULTS}/benchmarks/{{benchmark}}/score/{{system}}/{{prompt}}.tsv"
    conda:
        "../../envs/core.yaml"
    script:
        "../scripts/score.py"


# COMET: one GPU job per benchmark over every system × prompt, so that the model loads once
# and each distinct (source, hypothesis, reference) triple is scored once (see scoring/comet.py).
# (The script is comet_scores.py, not comet.py: run without per-rule conda, Snakemake puts the
# scripts' folder on sys.path, where a comet.py would be what `import comet` finds.)
# Not protected: the scores are kept in the score store (cache.dir, outside Snakemake's view),
# so adding a system reruns this job but scores only the new system's triples.
rule comet:
    input:
        translations=translation_files_of,
        data=f"{RESULTS}/{{benchmark}}/data.parquet",
    output:
        scores=f"{RESULTS}/{{benchmark}}/scores/comet.parquet",
        summary=f"{RESULTS}/{{benchmark}}/scores/comet.json",
    params:
        code=scoring_code("gendermt.scoring.comet"),
        settings=comet_settings_of,
    resources:
        **gpu_resources(comet_gpus),
    log:
        f"{LOGS}/{{benchmark}}/comet.log",
    benchmark:
        f"{RESULTS}/benchmarks/{{benchmark}}/comet.tsv"
    conda:
        "../../envs/comet.yaml"
    script:
        "../scripts/comet_scores.py"


# BERTScore: like COMET, one job per benchmark (the model loads once; distinct pairs once;
# pairs in the score store are not scored again).
rule bertscore:
    input:
        translations=translation_files_of,
        data=f"{RESULTS}/{{benchmark}}/data.parquet",
    output:
        scores=f"{RESULTS}/{{benchmark}}/scores/bertscore.parquet",
        summary=f"{RESULTS}/{{benchmark}}/scores/bertscore.json",
    params:
        code=stage_code("gendermt.scoring.bertscore"),
        settings=bertscore_settings(),
    resources:
        **gpu_resources(bertscore_gpus),
    log:
        f"{LOGS}/{{benchmark}}/bertscore.log",
    benchmark:
        f"{RESULTS}/benchmarks/{{benchmark}}/bertscore.tsv"
    conda:
        "../../envs/comet.yaml"
    script:
        "../scripts/bertscore.py"
