from gendermt.benchmarks.gate.tables import build_tables
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build_tables(snakemake.input.data, snakemake.params.runs, dict(snakemake.output.items()),
                 snakemake.params.min_words, snakemake.params.max_words,
                 snakemake.params.full_set_recall, checks=snakemake.input.checks,
                 floor=snakemake.params.floor)
