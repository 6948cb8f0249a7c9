"""Helpers only the Snakefile uses: code fingerprints, placement, protection, and the overrides of
Snakemake internals."""
