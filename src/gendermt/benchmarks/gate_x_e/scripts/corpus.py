from gendermt.benchmarks.gate_x_e.corpus import build_corpus
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build_corpus(list(snakemake.input), dict(snakemake.output.items()),
                 snakemake.params.exclude_swapped)
