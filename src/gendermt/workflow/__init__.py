"""Helpers only the Snakefile uses: code fingerprints, placement, protection, the start-up
checks (the files a run's systems need), the run's record, and the overrides of Snakemake
internals."""
