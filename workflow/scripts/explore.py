from gendermt.data.io import logging_to
from gendermt.report.explorer_page import build_page

with logging_to(snakemake.log[0]):
    build_page(snakemake.params.module, dict(snakemake.params.inputs), snakemake.output.html)
