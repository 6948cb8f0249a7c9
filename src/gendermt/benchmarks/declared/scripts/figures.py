from gendermt.benchmarks.declared.figures import build_figures
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build_figures(snakemake.input.accuracy, snakemake.params.genders, snakemake.params.label,
                  snakemake.output.png, snakemake.output.pdf)
