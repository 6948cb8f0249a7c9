from gendermt.io import logging_to
from gendermt.scoring.comet import comet_file

with logging_to(snakemake.log[0]):
    comet_file(
        snakemake.input.translations,
        snakemake.input.data,
        snakemake.output.scores,
        snakemake.output.summary,
        snakemake.params.settings,
    )
