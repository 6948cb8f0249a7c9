"""Helpers only the Snakefile uses: declared stage versions (a job's code param), placement,
protection, and the overrides of Snakemake internals."""
