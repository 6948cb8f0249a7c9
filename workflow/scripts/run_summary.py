from gendermt.data.io import logging_to
from gendermt.report.frontpage import write_front_page

with logging_to(snakemake.log[0]):
    write_front_page(snakemake.params.summary, dict(snakemake.output.items()),
                     snakemake.input.scorecard or None, snakemake.input.legend or None)
