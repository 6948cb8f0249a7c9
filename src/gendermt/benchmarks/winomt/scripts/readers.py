from gendermt.benchmarks.winomt.tables import build_readers_table
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build_readers_table(snakemake.input.summaries, snakemake.input.published,
                        snakemake.output.csv, snakemake.output.md, snakemake.params.systems,
                        snakemake.params.langs, snakemake.params.readers)
