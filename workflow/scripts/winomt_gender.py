from gendermt.benchmarks.winomt.evaluate import score_file
from gendermt.io import logging_to

with logging_to(snakemake.log[0]):
    score_file(snakemake.input.translations, snakemake.input.data, snakemake.wildcards.prompt,
               snakemake.params.alignment, snakemake.output.table, snakemake.output.summary,
               system=snakemake.wildcards.system, sentences_csv=snakemake.output.csv)
