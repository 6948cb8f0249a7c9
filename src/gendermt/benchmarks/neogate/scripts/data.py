from gendermt.benchmarks.neogate.data import build
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build(snakemake.params.source["test"], snakemake.params.source["dev"],
          snakemake.params.paradigms, snakemake.output.data, snakemake.output.dev,
          snakemake.output.provenance)
