from gendermt.benchmarks.winomt.data import build
from gendermt.data.io import logging_to
from gendermt.data.provenance import add_datasets
from gendermt.data.reads import checking
from gendermt.data.subsets import apply as apply_subset

# every file held, as it is read, to the hash start-up checked (gendermt.data.reads)
with logging_to(snakemake.log[0]), \
        checking(snakemake.params.data_sources, snakemake.params.datasets) as read:
    build(**snakemake.params.source, output=snakemake.output.data,
          provenance=snakemake.output.provenance)
    # the public data sets its files come from (source, commit, licence, sha256 of each)
    add_datasets(snakemake.output.provenance, snakemake.params.datasets, read)
    # a study's stratified, seeded subset of the items (recorded in data.json)
    apply_subset(snakemake.output.data, snakemake.output.provenance,
                 getattr(snakemake.params, "subset", None))
