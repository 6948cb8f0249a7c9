from gendermt.benchmarks.gambit.evaluate import score_run
from gendermt.data.io import logging_to
from gendermt.translation.cache import configured_dir

with logging_to(snakemake.log[0]):
    score_run(snakemake.input.translations, snakemake.input.data, snakemake.input.isco,
                snakemake.wildcards.lang, snakemake.params.detector, snakemake.output.csv,
                snakemake.output.summary, cache_dir=configured_dir(snakemake.config),
                systems=snakemake.params.judge)
