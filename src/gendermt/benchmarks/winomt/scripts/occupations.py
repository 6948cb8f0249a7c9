from gendermt.benchmarks.winomt.tables import build_occupations_table
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build_occupations_table(snakemake.input.tables, snakemake.output.csv, snakemake.output.md,
                            snakemake.params.systems, snakemake.params.langs)
