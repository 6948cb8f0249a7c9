from gendermt.benchmarks.winomt.data import build
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    # the whole set, without the study's subset (gendermt.benchmarks.winomt.whole_file)
    build(**snakemake.params.source, output=snakemake.output.data,
          provenance=snakemake.output.provenance)
