from gendermt.benchmarks.winomt.compare_figures import build_compare_figures
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build_compare_figures({key.removeprefix("csv_"): path for key, path in snakemake.input.items()},
                          dict(snakemake.output.items()))
