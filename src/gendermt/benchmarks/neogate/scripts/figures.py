from gendermt.benchmarks.neogate.figures import build_figures
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build_figures(snakemake.input.summaries, dict(snakemake.output.items()),
                  snakemake.params.systems, snakemake.params.paradigms,
                  snakemake.params.formats)
