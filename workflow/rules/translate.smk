# Stages 2 and 3: per-item inputs from versioned prompt templates, then one job per
# system × prompt. Translation jobs of GPU backends ask for GPUs through `resources`.


localrules: build_inputs


rule build_inputs:
    input:
        data="results/{benchmark}/data.parquet",
    output:
        "results/{benchmark}/inputs/{prompt}.jsonl",
    params:
        code=code_fingerprint("gendermt.prompts"),
        template=template_of,
    log:
        "logs/{benchmark}/inputs/{prompt}.log",
    conda:
        "../../envs/core.yaml"
    script:
        "../scripts/build_inputs.py"


rule translate:
    input:
        inputs="results/{benchmark}/inputs/{prompt}.jsonl",
        data="results/{benchmark}/data.parquet",
        stored=stored_outputs_of,
        sources=shared_sources_of,
    output:
        # protected: hours of GPU time; a change that would redo them stops the run instead
        # (README, "Protected outputs")
        translations=protected("results/{benchmark}/translations/{system}/{prompt}.jsonl"),
        meta=protected("results/{benchmark}/translations/{system}/{prompt}.meta.json"),
    params:
        code=code_fingerprint("gendermt.translate"),
        settings=system_settings,
        postprocess=postprocess_of,
    resources:
        gpu=translation_gpus,
        gpu_model=translation_gpu_model,
        slurm_partition=translation_partition,
    log:
        "logs/{benchmark}/translate/{system}/{prompt}.log",
    benchmark:
        "results/benchmarks/{benchmark}/translate/{system}/{prompt}.tsv"
    conda:
        "../../envs/translate.yaml"
    script:
        "../scripts/translate.py"
