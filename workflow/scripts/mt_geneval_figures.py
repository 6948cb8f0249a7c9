from gendermt.benchmarks.mt_geneval.figures import build_figures
from gendermt.io import logging_to

with logging_to(snakemake.log[0]):
    build_figures(snakemake.input.accuracy, snakemake.output.png, snakemake.output.pdf)
