from gendermt.benchmarks.fairtranslate.inclusive_tables import build_inclusive_tables
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build_inclusive_tables(
        snakemake.input.data,
        snakemake.params.runs,
        snakemake.output.analysed,
        dict(snakemake.output.items()),
        snakemake.params.systems,
        snakemake.params.prompts,
        comet=snakemake.input.comet[0] if snakemake.input.comet else None,
        clean_outlier=snakemake.params.clean_outlier,
        postprocess=snakemake.params.postprocess,
        normalize=snakemake.params.normalize,
    )
