from gendermt.benchmarks.conga.tables import build_tables
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build_tables(
        snakemake.input.data,
        snakemake.input.sentences,
        dict(snakemake.output.items()),
        snakemake.params.systems,
        snakemake.params.prompts,
        snakemake.params.source_tags,
        snakemake.params.denominator,
        checks=snakemake.input.checks,
        floor=snakemake.params.floor,
        target_tags=snakemake.params.target_tags,
        annotator=snakemake.params.annotator,
    )
