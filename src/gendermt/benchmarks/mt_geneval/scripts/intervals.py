from gendermt.benchmarks.mt_geneval.intervals import build_intervals
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build_intervals(snakemake.params.runs, dict(snakemake.output.items()),
                    snakemake.params.bootstrap,
                    snakemake.input.data if snakemake.params.bleu else None,
                    snakemake.params.options, snakemake.params.tokenize)
