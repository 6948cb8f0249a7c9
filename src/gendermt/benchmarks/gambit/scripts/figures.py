from pathlib import Path

from gendermt.benchmarks.gambit.figures import build_figures
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build_figures(Path(snakemake.input.tables[0]).parent,
                  Path(snakemake.output.grape_overview_png).parent,
                  list(snakemake.input.references))
