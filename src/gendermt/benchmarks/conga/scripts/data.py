from gendermt.benchmarks.conga.data import build
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build(snakemake.output.data, snakemake.output.provenance, tags=snakemake.params.tags,
          **snakemake.params.source)
