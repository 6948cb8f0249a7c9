from gendermt.benchmarks.neogate.tables import build_tables
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build_tables(snakemake.input.summaries, snakemake.input.provenance,
                 dict(snakemake.output.items()), snakemake.params.systems,
                 snakemake.params.paradigms, snakemake.params.formats)
