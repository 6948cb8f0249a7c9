from gendermt.benchmarks.fairtranslate.figures import build_figures
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build_figures(
        snakemake.input.data,
        snakemake.params.runs,
        snakemake.output.png,
        snakemake.output.pdf,
        snakemake.params.systems,
        snakemake.params.prompts,
        snakemake.params.metrics,
        clean_outlier=snakemake.params.clean_outlier,
    )
