from gendermt.data.io import logging_to
from gendermt.translation.prompts import build_inputs

with logging_to(snakemake.log[0]):
    # GAMBIT's prompts are named by the target language
    build_inputs(snakemake.input.data, snakemake.params.template, snakemake.output[0],
                 tgt_lang=snakemake.wildcards.lang)
