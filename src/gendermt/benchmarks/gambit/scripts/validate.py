from gendermt.benchmarks.gambit.validation import validate_file
from gendermt.data.io import logging_to
from gendermt.translation.cache import configured_dir

with logging_to(snakemake.log[0]):
    validate_file(snakemake.input.validation, snakemake.input.isco, snakemake.wildcards.lang,
                  snakemake.params.detector, snakemake.output.csv, snakemake.output.summary,
                  cache_dir=configured_dir(snakemake.config),
                  systems=snakemake.params.judge)
