from gendermt.benchmarks.winomt.tables import build_tables
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build_tables(snakemake.input.summaries, snakemake.output.csv, snakemake.output.md,
                 snakemake.params.systems, snakemake.params.langs)
