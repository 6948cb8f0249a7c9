# Stage 1: each benchmark's published files → results/{benchmark}/data.parquet


rule fairtranslate_data:
    input:
        fairtranslate_raw,
    output:
        data="results/fairtranslate/data.parquet",
        provenance="results/fairtranslate/data.json",
    params:
        code=code_fingerprint("gendermt.benchmarks.fairtranslate.data"),
        source=config["benchmarks"]["fairtranslate"]["data"],
    log:
        "logs/fairtranslate/data.log",
    conda:
        "../../envs/core.yaml"
    script:
        "../scripts/fairtranslate_data.py"
