from gendermt.benchmarks.fairtranslate.inclusive_figures import build_inclusive_figures
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    build_inclusive_figures(
        snakemake.input.occupation_forms,
        snakemake.input.they_pronouns,
        dict(snakemake.output.items()),
        snakemake.params.systems,
        snakemake.params.prompts,
    )
