from gendermt.benchmarks.fairtranslate.tables import build_tables
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build_tables(
        snakemake.input.data,
        snakemake.params.runs,
        dict(snakemake.output.items()),
        snakemake.params.systems,
        snakemake.params.prompts,
        snakemake.params.metrics,
        snakemake.params.bootstrap,
        clean_outlier=snakemake.params.clean_outlier,
        kinds=snakemake.params.kinds,
        postprocess=snakemake.params.postprocess,
    )
