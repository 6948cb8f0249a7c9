from gendermt.benchmarks.winomt.whole_file import translate_whole
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    translate_whole(snakemake.params.settings, snakemake.input.data, snakemake.wildcards.lang,
                    snakemake.output[0], snakemake.params.postprocess)
