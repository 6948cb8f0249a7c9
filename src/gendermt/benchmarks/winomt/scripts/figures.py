from gendermt.benchmarks.winomt.figures import build_figures
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build_figures(snakemake.input.summaries, snakemake.output.png, snakemake.output.pdf,
                  snakemake.params.systems, snakemake.params.langs,
                  snakemake.input.intervals[0] if snakemake.input.intervals else None,
                  snakemake.input.checks, snakemake.params.kinds,
                  snakemake.params.quality_floors)
