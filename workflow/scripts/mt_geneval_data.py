from gendermt.benchmarks.mt_geneval.data import build
from gendermt.io import logging_to

with logging_to(snakemake.log[0]):
    build(list(snakemake.input), snakemake.params.languages, snakemake.params.split,
          snakemake.params.sets, snakemake.output.data, snakemake.output.provenance)
