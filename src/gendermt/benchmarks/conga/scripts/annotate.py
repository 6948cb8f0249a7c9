from gendermt.benchmarks.conga.annotations import annotate_file
from gendermt.data.io import logging_to
from gendermt.translation.cache import configured_dir

with logging_to(snakemake.log[0]):
    annotate_file(
        snakemake.input.translations,
        snakemake.input.data,
        snakemake.output.annotations,
        snakemake.output.summary,
        files=snakemake.params.files,
        alternatives=snakemake.input.alternatives[0] if snakemake.input.alternatives else None,
        annotator=snakemake.params.annotator,
        target_tags=snakemake.params.target_tags,
        cache_dir=configured_dir(snakemake.config),
    )
