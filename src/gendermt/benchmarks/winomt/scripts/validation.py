from gendermt.benchmarks.winomt.validation import build_table
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build_table(snakemake.input.labels, snakemake.params.runs, snakemake.params.readers,
                snakemake.input.tables, snakemake.output.csv, snakemake.output.md,
                snakemake.params.label_set)
