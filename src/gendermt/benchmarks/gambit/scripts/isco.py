from gendermt.benchmarks.gambit.isco import build
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build(snakemake.input[0], snakemake.output[0])
