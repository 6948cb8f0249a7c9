from gendermt.analysis.finish import write_finish_table
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    write_finish_table(snakemake.params.runs, snakemake.output.csv, snakemake.output.md)
