from gendermt.benchmarks.gambit.data import build
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build(snakemake.params.source, snakemake.output.data, snakemake.output.provenance,
          isco=snakemake.input.isco or None)
