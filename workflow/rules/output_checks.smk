# Outputs that are not translations into the target language (the instruction echoed back,
# an answer in another language), counted per run of every benchmark
# (gendermt.scoring.output_checks); the scorecard marks runs below its clean-share floor.
TARGETS.extend(f"{RESULTS}/{b}/tables/output_checks.csv" for b in BENCHMARK_CONFIG)


localrules: output_checks


rule output_checks:
    input:
        translations=translation_files_of,
        inputs=output_check_inputs_of,
    output:
        csv=table_report(
            f"{RESULTS}/{{benchmark}}/tables/output_checks.csv",
            caption="../report/output_checks.rst",
            category="Translation runs",
            subcategory="{benchmark}",
        ),
        md=f"{RESULTS}/{{benchmark}}/tables/output_checks.md",
    params:
        code=code_fingerprint("gendermt.scoring.output_checks"),
        runs=output_check_records_of,
    log:
        f"{LOGS}/{{benchmark}}/output_checks.log",
    conda:
        "../../envs/core.yaml"
    script:
        "../scripts/output_checks.py"
