# Outputs that are not translations into the target language (the instruction echoed back,
# an answer in another language), counted per run of every benchmark
# (gendermt.output_checks); the scorecard marks runs below its clean-share floor.
TARGETS.extend(f"{RESULTS}/{b}/tables/output_checks.csv" for b in BENCHMARKS)


localrules: output_checks


def output_check_records_of(wildcards):
    """{system, prompt, path, inputs} of every translation file of a benchmark."""
    return [
        {**r, "inputs": f"{RESULTS}/{wildcards.benchmark}/inputs/{r['prompt']}.jsonl"}
        for r in translation_records_of(wildcards)
    ]


rule output_checks:
    input:
        translations=translation_files_of,
        inputs=lambda wc: sorted({r["inputs"] for r in output_check_records_of(wc)}),
    output:
        csv=table_report(
            f"{RESULTS}/{{benchmark}}/tables/output_checks.csv",
            caption="../report/output_checks.rst",
            category="Translation runs",
            subcategory="{benchmark}",
        ),
        md=f"{RESULTS}/{{benchmark}}/tables/output_checks.md",
    params:
        code=code_fingerprint("gendermt.output_checks"),
        runs=output_check_records_of,
    log:
        f"{LOGS}/{{benchmark}}/output_checks.log",
    conda:
        "../../envs/core.yaml"
    script:
        "../scripts/output_checks.py"
