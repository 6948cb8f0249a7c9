from gendermt.benchmarks.gate.tables import build_figure
from gendermt.io import logging_to

with logging_to(snakemake.log[0]):
    build_figure(snakemake.input.prf, snakemake.output.png, snakemake.output.pdf)
