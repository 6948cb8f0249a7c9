from gendermt.translation.extract import extract_file

# no logging_to: nothing here logs but the one line extract_file appends to the log
extract_file(
    snakemake.input.raw,
    snakemake.input.meta,
    snakemake.output.translations,
    snakemake.output.meta,
    snakemake.params.postprocess,
    log=snakemake.log[0],
)
