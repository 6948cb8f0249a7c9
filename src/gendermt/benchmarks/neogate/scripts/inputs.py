from gendermt.benchmarks.neogate.inputs import build_inputs
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build_inputs(snakemake.input.data, snakemake.input.dev, snakemake.params.template,
                 snakemake.params.run, snakemake.output[0])
