from gendermt.io import logging_to
from gendermt.scoring.comet import comet_benchmark

with logging_to(snakemake.log[0]):
    comet_benchmark(
        snakemake.input.translations,
        snakemake.input.data,
        snakemake.output.scores,
        snakemake.output.summary,
        snakemake.params.settings,
        normalize=snakemake.params.settings.get("normalize_hypotheses"),
    )
