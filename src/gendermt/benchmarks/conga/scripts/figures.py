from gendermt.benchmarks.conga.figures import build_figures
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build_figures(
        snakemake.input.sentences,
        snakemake.output.png,
        snakemake.output.pdf,
        snakemake.params.systems,
        snakemake.params.prompts,
    )
