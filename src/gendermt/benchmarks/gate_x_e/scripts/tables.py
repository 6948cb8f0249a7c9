from gendermt.benchmarks.gate_x_e.tables import build_tables
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build_tables(snakemake.input.data, snakemake.input.tuples, snakemake.params.runs,
                 dict(snakemake.output.items()), snakemake.params.bleu)
