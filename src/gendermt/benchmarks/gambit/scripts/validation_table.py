from gendermt.benchmarks.gambit.validation_table import write_validation_table
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    write_validation_table(snakemake.input, snakemake.output.csv, snakemake.output.md)
