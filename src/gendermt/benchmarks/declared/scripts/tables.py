from gendermt.benchmarks.declared.tables import build_tables
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build_tables(snakemake.params.runs, snakemake.params.genders, snakemake.params.metrics,
                 dict(snakemake.output.items()), (snakemake.input.comet or [None])[0],
                 snakemake.input.data)
