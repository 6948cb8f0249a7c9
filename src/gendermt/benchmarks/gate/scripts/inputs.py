from gendermt.benchmarks.gate.inputs import build_inputs
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build_inputs(snakemake.input.data, snakemake.params.template, snakemake.output[0])
