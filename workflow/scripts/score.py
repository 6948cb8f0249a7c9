from gendermt.data.io import logging_to
from gendermt.scoring.score import score_file

with logging_to(snakemake.log[0]):
    score_file(
        snakemake.input.translations,
        snakemake.input.data,
        snakemake.output.scores,
        snakemake.output.summary,
        snakemake.params.metrics,
        snakemake.params.options,
        snakemake.params.group_by,
        snakemake.params.tokenize,
        normalize=snakemake.params.normalize,
    )
