from gendermt.benchmarks.gambit.agreement import write_agreement
from gendermt.data.io import logging_to

with logging_to(snakemake.log[0]):
    write_agreement(snakemake.params.runs,
                    {d: list(snakemake.input[d]) for d in snakemake.params.detectors},
                    snakemake.output.csv, snakemake.output.md)
