from gendermt.io import logging_to
from gendermt.scorecard.stage import make_scorecard

with logging_to(snakemake.log[0]):
    make_scorecard(snakemake.params.results, snakemake.params.benchmarks,
                   snakemake.params.systems, dict(snakemake.output.items()),
                   snakemake.params.bootstrap, snakemake.input.scores)
