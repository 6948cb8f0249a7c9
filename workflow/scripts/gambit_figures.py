from pathlib import Path

from gendermt.benchmarks.gambit.figures import write_figures
from gendermt.io import logging_to

with logging_to(snakemake.log[0]):
    write_figures(snakemake.params.runs, snakemake.input.isco,
                  snakemake.input.stereotype or None, snakemake.params.settings,
                  Path(snakemake.output.grape_overview_png).parent,
                  labour=snakemake.params.labour)
