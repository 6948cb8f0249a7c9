from gendermt.config.systems import settings_on
from gendermt.data.io import logging_to
from gendermt.translation.cache import configured_dir
from gendermt.translation.source_translations import translate_sources

with logging_to(snakemake.log[0]):
    translate_sources(
        snakemake.input.inputs,
        snakemake.input.data,
        snakemake.wildcards.system,
        # every setting, also those that change how but not what is asked (not in params),
        # with the benchmark's decoding overrides
        settings_on(snakemake.config, snakemake.wildcards.benchmark, snakemake.wildcards.system),
        snakemake.output.requests,
        snakemake.output.translations,
        snakemake.output.meta,
        cache_dir=configured_dir(snakemake.config),
        benchmark=snakemake.wildcards.benchmark,
        threads=snakemake.threads,
    )
