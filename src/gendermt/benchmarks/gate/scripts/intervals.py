from gendermt.benchmarks.gate.intervals import build_intervals
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build_intervals(snakemake.input.data, snakemake.params.runs,
                    dict(snakemake.output.items()), snakemake.params.bootstrap,
                    snakemake.params.min_words, snakemake.params.max_words,
                    snakemake.params.full_set_recall)
