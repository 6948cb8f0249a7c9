from gendermt.benchmarks.neogate.flores_tables import build_table
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build_table(list(snakemake.params.runs), (list(snakemake.input.comet) or [None])[0],
                (list(snakemake.input.bertscore) or [None])[0], snakemake.output.csv,
                snakemake.output.md)
