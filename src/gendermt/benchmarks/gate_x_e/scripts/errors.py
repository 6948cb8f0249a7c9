from gendermt.benchmarks.gate_x_e.errors import build_errors
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build_errors(list(snakemake.params.runs), snakemake.output.csv, snakemake.output.md)
