from gendermt.benchmarks.mt_geneval.tables import build_tables
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build_tables(snakemake.params.runs, dict(snakemake.output.items()))
