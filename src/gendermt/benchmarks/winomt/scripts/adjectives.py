from gendermt.benchmarks.winomt.adjectives import score_adjectives
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    score_adjectives(snakemake.wildcards.system, snakemake.wildcards.lang,
                     snakemake.input.data, snakemake.input.anti, snakemake.input.translations,
                     snakemake.input.plain, snakemake.params.readers, snakemake.output.table,
                     snakemake.output.summary, snakemake.params.alignment,
                     snakemake.params.morphology, snakemake.input.lexicon,
                     snakemake.params.bootstrap, snakemake.params.source)
