from gendermt.benchmarks.winomt.adjectives_figure import build_adjectives_figure
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build_adjectives_figure(snakemake.input.csv, snakemake.output.png, snakemake.output.pdf)
