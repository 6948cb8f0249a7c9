# Stage 4: all sacrebleu metrics of one translation file in one CPU job; COMET in a GPU job.


rule score:
    input:
        translations="results/{benchmark}/translations/{system}/{prompt}.jsonl",
        data="results/{benchmark}/data.parquet",
    output:
        scores="results/{benchmark}/scores/{system}/{prompt}.parquet",
        summary="results/{benchmark}/scores/{system}/{prompt}.json",
    params:
        code=code_fingerprint("gendermt.scoring.score"),
        metrics=sacrebleu_metrics_of,
        options=metric_options,
        group_by=corpus_groups_of,
    log:
        "logs/{benchmark}/score/{system}/{prompt}.log",
    benchmark:
        "results/benchmarks/{benchmark}/score/{system}/{prompt}.tsv"
    conda:
        "../../envs/core.yaml"
    script:
        "../scripts/score.py"


rule comet:
    input:
        translations="results/{benchmark}/translations/{system}/{prompt}.jsonl",
        data="results/{benchmark}/data.parquet",
    output:
        scores=protected("results/{benchmark}/scores/{system}/{prompt}.comet.parquet"),
        summary=protected("results/{benchmark}/scores/{system}/{prompt}.comet.json"),
    params:
        code=code_fingerprint("gendermt.scoring.comet"),
        settings=comet_settings(),
    resources:
        gpu=comet_gpus,
        gpu_model=comet_gpu_model,
        slurm_partition=comet_partition,
    log:
        "logs/{benchmark}/comet/{system}/{prompt}.log",
    benchmark:
        "results/benchmarks/{benchmark}/comet/{system}/{prompt}.tsv"
    conda:
        "../../envs/comet.yaml"
    script:
        "../scripts/comet.py"
