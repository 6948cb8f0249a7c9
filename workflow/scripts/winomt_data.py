from gendermt.benchmarks.winomt.data import build
from gendermt.data_provenance import add_datasets
from gendermt.io import logging_to

with logging_to(snakemake.log[0]):
    build(**snakemake.params.source, output=snakemake.output.data,
          provenance=snakemake.output.provenance)
    # the public data sets its files come from (source, commit, licence, sha256 of each)
    add_datasets(snakemake.output.provenance, snakemake.params.datasets)
