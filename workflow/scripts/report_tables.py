from gendermt.data.io import logging_to
from gendermt.report.htmltable import write_tables

with logging_to(snakemake.log[0]):
    write_tables(snakemake.params.html_pages)
