from gendermt.io import logging_to
from gendermt.translate import translate_file

with logging_to(snakemake.log[0]):
    translate_file(
        snakemake.input.inputs,
        snakemake.input.data,
        snakemake.wildcards.system,
        snakemake.params.settings,
        snakemake.output.translations,
        snakemake.output.meta,
        snakemake.params.postprocess,
        benchmark=snakemake.wildcards.benchmark,
    )
