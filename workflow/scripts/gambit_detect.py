from gendermt.benchmarks.gambit.evaluate import score_run
from gendermt.cache import configured_dir
from gendermt.io import logging_to

with logging_to(snakemake.log[0]):
    score_run(snakemake.input.translations, snakemake.input.data, snakemake.input.isco,
                snakemake.wildcards.lang, snakemake.params.detector, snakemake.output.csv,
                snakemake.output.summary, cache_dir=configured_dir(snakemake.config),
                systems=snakemake.params.judge)
