from pathlib import Path

from gendermt.data.io import logging_to
from gendermt.scorecard.stage import make_scorecard

with logging_to(snakemake.log[0]):
    # results/scorecard/scorecard.csv → results/
    make_scorecard(Path(snakemake.output.csv).parents[1], snakemake.params.benchmarks,
                   snakemake.params.systems, dict(snakemake.output.items()),
                   snakemake.params.bootstrap, None, snakemake.params.floors,
                   snakemake.params.reader_inputs, snakemake.params.headline,
                   snakemake.params.prompt_order, snakemake.params.kinds)
