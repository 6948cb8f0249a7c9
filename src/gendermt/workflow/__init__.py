"""Helpers only the Snakefile uses: declared stage versions (a job's code param), placement,
protection, the start-up checks (the files a run's systems need), the run's record, and the
overrides of Snakemake internals."""
