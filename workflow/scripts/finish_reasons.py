from gendermt.analysis.finish import write_finish_table
from gendermt.io import logging_to

with logging_to(snakemake.log[0]):
    write_finish_table(snakemake.input.translations, snakemake.output.csv, snakemake.output.md)
