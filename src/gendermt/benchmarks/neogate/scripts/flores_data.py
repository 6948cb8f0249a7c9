from gendermt.benchmarks.neogate.flores import build
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build(snakemake.input.source, snakemake.input.reference, snakemake.output.data,
          snakemake.output.provenance)
