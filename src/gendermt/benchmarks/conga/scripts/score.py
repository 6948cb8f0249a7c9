from gendermt.benchmarks.conga.evaluate import score_run
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    score_run(
        snakemake.input.annotations,
        snakemake.input.data,
        snakemake.output.entities,
        snakemake.output.sentences,
        snakemake.output.summary,
        system=snakemake.wildcards.system,
        prompt=snakemake.wildcards.prompt,
        source_tags=snakemake.params.source_tags,
        target_tags=snakemake.params.target_tags,
        denominator=snakemake.params.denominator,
    )
