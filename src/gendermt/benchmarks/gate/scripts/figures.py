from gendermt.benchmarks.gate.figures import build_figures
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build_figures(snakemake.input.prf, snakemake.output.png, snakemake.output.pdf,
                  snakemake.input.intervals[0] if snakemake.input.intervals else None,
                  snakemake.params.kinds)
