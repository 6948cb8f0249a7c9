from gendermt.benchmarks.gate.data import build
from gendermt.data.io import logging_to
from gendermt.data.provenance import add_datasets

with logging_to(snakemake.log[0]):
    build(list(snakemake.input), snakemake.output.data, snakemake.output.provenance)
    # the public data sets its files come from (source, commit, licence, sha256 of each)
    add_datasets(snakemake.output.provenance, snakemake.params.datasets)
