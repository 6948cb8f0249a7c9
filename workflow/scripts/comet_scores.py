from gendermt.data.io import logging_to
from gendermt.scoring.comet import comet_benchmark
from gendermt.scoring.score_store import score_store_dir

with logging_to(snakemake.log[0]):
    comet_benchmark(
        snakemake.input.translations,
        snakemake.input.data,
        snakemake.output.scores,
        snakemake.output.summary,
        snakemake.params.settings,
        normalize=snakemake.params.settings.get("normalize_hypotheses"),
        store_dir=score_store_dir(snakemake.config),
    )
