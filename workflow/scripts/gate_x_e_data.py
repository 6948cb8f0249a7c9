from gendermt.benchmarks.gate_x_e.data import build
from gendermt.io import logging_to

with logging_to(snakemake.log[0]):
    build(list(snakemake.input), snakemake.output.data, snakemake.output.tuples,
          snakemake.output.provenance, snakemake.params.exclude_swapped)
