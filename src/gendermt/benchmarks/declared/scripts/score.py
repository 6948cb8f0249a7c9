from gendermt.benchmarks.declared.evaluate import score_run
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    score_run(snakemake.input.translations, snakemake.input.data, snakemake.output.decisions,
              snakemake.output.decisions_csv, snakemake.output.summary, snakemake.params.genders,
              snakemake.params.metrics, snakemake.params.options, snakemake.params.tokenize,
              snakemake.input.provenance)
