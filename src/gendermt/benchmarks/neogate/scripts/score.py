from gendermt.benchmarks.neogate.evaluate import score_run
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    score_run(snakemake.input.translations, snakemake.input.data, snakemake.params.run,
              snakemake.params.template, snakemake.params.options, snakemake.wildcards.system,
              snakemake.output.scores, snakemake.output.summary, snakemake.output.inspection,
              snakemake.input.inputs)
