from gendermt.benchmarks.winomt.validation import build_table
from gendermt.io import logging_to

with logging_to(snakemake.log[0]):
    build_table(snakemake.input.labels, snakemake.input.data, snakemake.params.runs,
                snakemake.input.translations, snakemake.params.readers,
                snakemake.params.alignment, snakemake.output.csv, snakemake.output.md)
