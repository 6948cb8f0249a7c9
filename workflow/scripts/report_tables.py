from gendermt.htmltable import write_tables
from gendermt.io import logging_to

with logging_to(snakemake.log[0]):
    write_tables(snakemake.params.html_pages)
