from gendermt.frontpage import write_front_page
from gendermt.io import logging_to

with logging_to(snakemake.log[0]):
    write_front_page(snakemake.params.summary, dict(snakemake.output.items()),
                     snakemake.input.scorecard or None, snakemake.input.legend or None)
