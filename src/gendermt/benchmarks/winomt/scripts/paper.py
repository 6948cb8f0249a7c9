from gendermt.benchmarks.winomt.paper import build_paper_table
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build_paper_table(snakemake.params.runs, snakemake.input.published,
                      snakemake.params.sources, snakemake.output.csv, snakemake.output.md,
                      snakemake.params.bootstrap, snakemake.params.systems,
                      snakemake.params.langs)
