# Systems that read only the source (NMT, Apertium) and run several prompts of a benchmark:
# one job translates the distinct sources of all those prompts, and each prompt's `translate`
# job takes its outputs from it, so that parallel prompt jobs do not each translate the same
# sources (gendermt/translation/source_translations.py). Not protected: adding a prompt re-makes it from
# the request cache, and the prompts' files (protected) read it as `ancient`.


rule translate_sources:
    input:
        inputs=source_inputs_of,
        data=f"{RESULTS}/{{benchmark}}/data.parquet",
    output:
        requests=f"{RESULTS}/{{benchmark}}/sources/{{system}}.inputs.jsonl",
        translations=f"{RESULTS}/{{benchmark}}/sources/{{system}}.jsonl",
        meta=f"{RESULTS}/{{benchmark}}/sources/{{system}}.meta.json",
    params:
        # the runner and this system's backend, as `translate`, and the distinct-sources step
        code=translation_code,
        sources_code=code_fingerprint("gendermt.translation.source_translations"),
        settings=system_output_settings,
    threads: translation_threads
    resources:
        **gpu_resources(source_gpus),
    log:
        f"{LOGS}/{{benchmark}}/translate_sources/{{system}}.log",
    benchmark:
        f"{RESULTS}/benchmarks/{{benchmark}}/translate_sources/{{system}}.tsv"
    conda:
        "../../envs/translate.yaml"
    script:
        "../scripts/translate_sources.py"
