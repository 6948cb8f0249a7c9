# Stages 2 and 3: per-item inputs from versioned prompt templates, then one job per
# system × prompt (raw outputs), then the hypotheses extracted from them. Translation jobs of
# GPU backends ask for GPUs through `resources`, and every translation job for the memory and
# time its backend needs (gendermt.workflow.job_size: small for jobs that read files).
# Last, the one translation of the distinct sources that prompts' jobs of source-only
# systems share (translate_sources).


localrules: build_inputs, finish_reasons


rule build_inputs:
    input:
        data=f"{RESULTS}/{{benchmark}}/data.parquet",
    output:
        f"{RESULTS}/{{benchmark}}/inputs/{{prompt}}.jsonl",
    params:
        code=stage_code("gendermt.translation.prompts"),
        template=template_of,
    log:
        f"{LOGS}/{{benchmark}}/inputs/{{prompt}}.log",
    conda:
        "../../envs/core.yaml"
    script:
        "../scripts/build_inputs.py"


rule translate:
    input:
        inputs=f"{RESULTS}/{{benchmark}}/inputs/{{prompt}}.jsonl",
        data=f"{RESULTS}/{{benchmark}}/data.parquet",
        stored=stored_outputs_of,
        model_files=model_files_of,
        source_translations=source_translation_of,
        # a commercial MT service's jobs wait for the count of all its jobs (rule paid_work)
        paid_work=paid_work_of,
    output:
        # protected: hours of GPU time; a change that would redo them stops the run instead,
        # for root too (gendermt.workflow.protection; docs/cache.md)
        raw=protected(f"{RESULTS}/{{benchmark}}/raw/{{system}}/{{prompt}}.jsonl"),
        meta=protected(f"{RESULTS}/{{benchmark}}/raw/{{system}}/{{prompt}}.meta.json"),
    params:
        # the runner and this system's backend only (editing another backend reruns nothing)
        code=translation_code,
        # what changes outputs only, canonical (sorted keys): not concurrency, timeouts,
        # retries, batch size (the job reads those from the config); an API server's
        # identity (`server`: base_url or cache_identity), not its address; not
        # post-processing (the `extract` rule below)
        settings=system_output_settings,
    threads: translation_threads
    resources:
        **gpu_resources(translation_gpus),
        **sized_resources(translation_size),
    log:
        f"{LOGS}/{{benchmark}}/translate/{{system}}/{{prompt}}.log",
    benchmark:
        f"{RESULTS}/benchmarks/{{benchmark}}/translate/{{system}}/{{prompt}}.tsv"
    conda:
        "../../envs/translate.yaml"
    script:
        "../scripts/translate.py"


# Before the first request of a commercial MT service: the characters and cost of ALL its
# jobs (every benchmark and language: max_characters is a budget per system), from their built
# inputs less the request cache's answers; over a system's max_characters it fails, and no
# service job (each takes this file as an input) sends anything. Runs no model: no benchmark.
rule paid_work:
    input:
        paid_work_inputs,
    output:
        f"{RESULTS}/paid_work.json",
    params:
        code=stage_code("gendermt.translation.paid_work", "gendermt.data.io",
                              "gendermt.translation.cache"),
        # per job: system, benchmark, request file and the settings that change the count
        # (requests' cache keys, price, max_characters; not concurrency or timeouts)
        jobs=lambda wildcards: paid_work_jobs(),
    log:
        f"{LOGS}/paid_work.log",
    localrule: True
    conda:
        "../../envs/core.yaml"
    script:
        "../scripts/paid_work.py"


# Stage 3b: hypotheses from the raw outputs (post-processing steps), cheap and unprotected,
# so that changing the steps reruns this and the scores, never a translation. A local rule:
# on a cluster, one submission per system × prompt would cost more than the work.
rule extract:
    input:
        raw=f"{RESULTS}/{{benchmark}}/raw/{{system}}/{{prompt}}.jsonl",
        meta=f"{RESULTS}/{{benchmark}}/raw/{{system}}/{{prompt}}.meta.json",
    output:
        translations=f"{RESULTS}/{{benchmark}}/translations/{{system}}/{{prompt}}.jsonl",
        meta=f"{RESULTS}/{{benchmark}}/translations/{{system}}/{{prompt}}.meta.json",
    params:
        code=stage_code("gendermt.translation.extract"),
        postprocess=postprocess_of,
    log:
        f"{LOGS}/{{benchmark}}/extract/{{system}}/{{prompt}}.log",
    localrule: True
    conda:
        "../../envs/core.yaml"
    script:
        "../scripts/extract.py"


# Why each output ended (eos, stop, length = cut off, n/a), counted per run of a benchmark.
declare_targets("finish_reasons", (f"{RESULTS}/{b}/tables/finish_reasons.csv" for b in BENCHMARK_CONFIG))


rule finish_reasons:
    input:
        translations=translation_files_of,
    output:
        csv=table_report(
            f"{RESULTS}/{{benchmark}}/tables/finish_reasons.csv",
            caption="../report/finish_reasons.rst",
            category="Translation runs",
            subcategory="{benchmark}",
        ),
        md=f"{RESULTS}/{{benchmark}}/tables/finish_reasons.md",
    params:
        code=stage_code("gendermt.analysis.finish"),
        runs=translation_records_of,
    log:
        f"{LOGS}/{{benchmark}}/finish_reasons.log",
    conda:
        "../../envs/core.yaml"
    script:
        "../scripts/finish_reasons.py"


# Systems that read only the source (NMT, Apertium) and run several prompts of a benchmark:
# one job translates the distinct sources of all those prompts, and each prompt's `translate`
# job takes its outputs from it, so that parallel prompt jobs do not each translate the same
# sources (gendermt/translation/source_translations.py). Not protected: adding a prompt re-makes it from
# the request cache, and the prompts' files (protected) read it as `ancient`.


rule translate_sources:
    input:
        inputs=source_inputs_of,
        data=f"{RESULTS}/{{benchmark}}/data.parquet",
        paid_work=paid_work_of,
    output:
        requests=f"{RESULTS}/{{benchmark}}/sources/{{system}}.inputs.jsonl",
        translations=f"{RESULTS}/{{benchmark}}/sources/{{system}}.jsonl",
        meta=f"{RESULTS}/{{benchmark}}/sources/{{system}}.meta.json",
    params:
        # the runner and this system's backend, as `translate`, and the distinct-sources step
        code=translation_code,
        sources_code=stage_code("gendermt.translation.source_translations"),
        settings=system_output_settings,
    threads: translation_threads
    resources:
        **gpu_resources(source_gpus),
        **sized_resources(source_size),
    log:
        f"{LOGS}/{{benchmark}}/translate_sources/{{system}}.log",
    benchmark:
        f"{RESULTS}/benchmarks/{{benchmark}}/translate_sources/{{system}}.tsv"
    conda:
        "../../envs/translate.yaml"
    script:
        "../scripts/translate_sources.py"
