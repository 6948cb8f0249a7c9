# Laid out as Neo-GATE's Table 4 (§4.1): generic en→it translation quality of the systems on
# FLORES files the user provides → inputs (the paper's 3-shot chat prompt, Table 10; NMT systems read the
# plain source) → the generic translate, score (BLEU, chrF, TER), bertscore and comet rules →
# one table in the paper's layout.
from gendermt.benchmarks.neogate.flores import load_template as load_flores_template


NEOGATE_FLORES = benchmark_spec("neogate-flores")
NEOGATE_FLORES_RUN_RECORDS = (
    run_paths(f"{RESULTS}/neogate-flores/scores/{{system}}/{{prompt}}.json", "neogate-flores")
)
NEOGATE_FLORES_RUNS = [r["path"] for r in NEOGATE_FLORES_RUN_RECORDS]
NEOGATE_FLORES_METRICS = NEOGATE_FLORES.get("metrics", [])

declare_targets("neogate-flores", [f"{RESULTS}/neogate-flores/tables/flores.csv"])


localrules: neogate_flores_data, neogate_flores_inputs, neogate_flores_table


ruleorder: neogate_flores_inputs > build_inputs


rule neogate_flores_data:
    input:
        source=provenanced(NEOGATE_FLORES.get("data", {}).get("source", [])),
        reference=provenanced(NEOGATE_FLORES.get("data", {}).get("reference", [])),
    output:
        data=f"{RESULTS}/neogate-flores/data.parquet",
        provenance=f"{RESULTS}/neogate-flores/data.json",
    params:
        code=stage_code("gendermt.benchmarks.neogate.flores"),
        # path, size and sha256 of what it reads: a changed source reruns it
        data_sources=data_source_identity(
            [NEOGATE_FLORES["data"][k] for k in ("source", "reference")]
        ),
    log:
        f"{LOGS}/neogate-flores/data.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/flores_data.py"


rule neogate_flores_inputs:
    input:
        data=f"{RESULTS}/neogate-flores/data.parquet",
    output:
        f"{RESULTS}/neogate-flores/inputs/{{prompt}}.jsonl",
    params:
        code=stage_code("gendermt.benchmarks.neogate.flores"),
        # the template with its chat demonstrations (neogate/flores.py)
        template=lambda wc: load_flores_template(NEOGATE_FLORES["templates"], wc.prompt),
    log:
        f"{LOGS}/neogate-flores/inputs/{{prompt}}.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/flores_inputs.py"


rule neogate_flores_table:
    input:
        summaries=NEOGATE_FLORES_RUNS,
        comet=(
            [f"{RESULTS}/neogate-flores/scores/comet.parquet"]
            if "comet" in NEOGATE_FLORES_METRICS
            else []
        ),
        bertscore=(
            [f"{RESULTS}/neogate-flores/scores/bertscore.parquet"]
            if "bertscore" in NEOGATE_FLORES_METRICS
            else []
        ),
    output:
        csv=table_report(
            f"{RESULTS}/neogate-flores/tables/flores.csv",
            caption="report/flores.rst",
            category="Neo-GATE",
            subcategory="Tables",
        ),
        md=f"{RESULTS}/neogate-flores/tables/flores.md",
    params:
        code=stage_code("gendermt.benchmarks.neogate.flores_tables"),
        runs=NEOGATE_FLORES_RUN_RECORDS,
    log:
        f"{LOGS}/neogate-flores/table.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/flores_table.py"
