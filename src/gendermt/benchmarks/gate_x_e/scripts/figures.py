from gendermt.benchmarks.gate_x_e.figures import build_figures
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build_figures(snakemake.input.accuracy, snakemake.output.png, snakemake.output.pdf,
                  snakemake.input.intervals[0] if snakemake.input.intervals else None,
                  snakemake.input.checks, snakemake.params.kinds,
                  snakemake.params.quality_floors)
