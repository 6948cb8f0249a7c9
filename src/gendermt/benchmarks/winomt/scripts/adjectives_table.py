from gendermt.benchmarks.winomt.adjectives_table import build_adjectives_table
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build_adjectives_table(snakemake.input.summaries, snakemake.input.published or None,
                           snakemake.output.csv, snakemake.output.md,
                           snakemake.params.systems, snakemake.params.langs)
