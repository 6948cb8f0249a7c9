from gendermt.data.io import logging_to
from gendermt.scoring.output_checks import write_check_table

with logging_to(snakemake.log[0]):
    write_check_table(snakemake.params.runs, snakemake.output.csv, snakemake.output.md)
