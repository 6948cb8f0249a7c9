from gendermt.benchmarks.declared.data import build
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build(snakemake.params.spec, snakemake.params.languages, snakemake.params.root,
          snakemake.output.data, snakemake.output.provenance)
