from gendermt.extract import extract_file
from gendermt.io import logging_to

with logging_to(snakemake.log[0]):
    extract_file(
        snakemake.input.raw,
        snakemake.input.meta,
        snakemake.output.translations,
        snakemake.output.meta,
        snakemake.params.postprocess,
    )
