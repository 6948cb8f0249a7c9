from gendermt.config.systems import settings_on
from gendermt.data.io import logging_to
from gendermt.translation.cache import configured_dir
from gendermt.translation.runner import translate_file
from gendermt.translation.source_translations import shared_outputs

with logging_to(snakemake.log[0]):
    translate_file(
        snakemake.input.inputs,
        snakemake.input.data,
        snakemake.wildcards.system,
        # every setting, also those that change how but not what is asked (not in params),
        # with the benchmark's decoding overrides
        settings_on(snakemake.config, snakemake.wildcards.benchmark, snakemake.wildcards.system),
        snakemake.output.raw,
        snakemake.output.meta,
        cache_dir=configured_dir(snakemake.config),
        benchmark=snakemake.wildcards.benchmark,
        threads=snakemake.threads,
        shared=(shared_outputs(snakemake.input.source_translations[0])
                if snakemake.input.source_translations else None),
    )
