from gendermt.benchmarks.winomt.compare import build_compare
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build_compare(snakemake.params.runs, snakemake.params.pairs, dict(snakemake.output.items()),
                  snakemake.params.bootstrap, snakemake.params.reader)
