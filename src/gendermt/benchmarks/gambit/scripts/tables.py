from pathlib import Path

from gendermt.benchmarks.gambit.tables import build_tables
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build_tables(snakemake.params.runs, snakemake.input.isco, snakemake.params.labour,
                 snakemake.input.stereotype or None, snakemake.params.settings,
                 Path(snakemake.output.grape).parent, checks=snakemake.input.checks,
                 floor=snakemake.params.floor, detector=snakemake.params.detector)
