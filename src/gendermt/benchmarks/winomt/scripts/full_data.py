from gendermt.benchmarks.winomt.data import build
from gendermt.data.io import logging_to
from gendermt.data.reads import checking

# every file held, as it is read, to the hash start-up checked (gendermt.data.reads)
with logging_to(snakemake.log[0]), checking(snakemake.params.data_sources):
    # the whole set, without the study's subset (gendermt.benchmarks.winomt.whole_file)
    build(**snakemake.params.source, output=snakemake.output.data,
          provenance=snakemake.output.provenance)
