from gendermt.data.io import logging_to
from gendermt.translation.prompts import build_inputs

with logging_to(snakemake.log[0]):
    build_inputs(snakemake.input.data, snakemake.params.template, snakemake.output[0])
