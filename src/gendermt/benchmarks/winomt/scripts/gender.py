from gendermt.benchmarks.winomt.evaluate import score_run
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    whole = dict(zip(snakemake.params.whole, snakemake.input.whole, strict=True))
    score_run(snakemake.wildcards.lang, snakemake.params.systems,
                   snakemake.input.translations, snakemake.input.data,
                   snakemake.params.alignment, snakemake.params.readers,
                   snakemake.output.tables, snakemake.output.csvs, snakemake.output.summaries,
                   snakemake.params.morphology, snakemake.input.lexicon, whole=whole,
                   full_data_path=snakemake.input.full[0] if whole else None)
