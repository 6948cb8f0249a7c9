from gendermt.benchmarks.gate_x_e.evaluate import score_run
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    score_run(snakemake.input.translations, snakemake.input.tuples, snakemake.output[0],
              snakemake.params.answer)
