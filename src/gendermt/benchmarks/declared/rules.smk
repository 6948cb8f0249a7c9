# Benchmarks declared as data (resources/benchmarks/<name>/benchmark.yaml;
# gendermt.benchmarks.declared, docs/declared-benchmarks.md): for each configured one, its
# files → data.parquet, the generic `build_inputs`, `translate` and `extract` rules run every
# system (templates: the benchmark file's own), then gendered-word accuracy (MT-GenEval's
# official rule) and BLEU/chrF per gender → items, tables, a figure and the scorecard's
# column. One rule file for all of them: its rules are made per benchmark (rule names
# declared_<stage>_<name>), so that each has plain paths and params, and an unconfigured
# declared benchmark has no rule.
from gendermt.benchmarks.declared.config import configured as declared_benchmarks
from gendermt.benchmarks.declared.data import data_view as declared_data_view


DECLARED = configured("benchmarks", declared_benchmarks, BENCHMARK_CONFIG)

for _name, _declared in DECLARED.items():
    _spec = _declared["spec"]
    _out = f"{RESULTS}/{_name}"
    _log = f"{LOGS}/{_name}"
    # every run (system × prompt) as a record; the aggregate stages never parse paths
    _runs = [
        {
            "system": r["system"],
            "prompt": r["prompt"],
            "summary": f"{_out}/items/{r['system']}/{r['prompt']}.json",
        }
        for r in run_records(_name)
    ]
    # COMET: the generic job's scores of every run (each segment against its own reference)
    _comet = [f"{_out}/scores/comet.parquet"] if "comet" in _declared["metrics"] else []
    declare_targets(
        _name,
        expand(f"{_out}/tables/{{table}}.csv", table=["accuracy", "quality", "summary"])
        + expand(f"{_out}/figures/accuracy.{{ext}}", ext=["png", "pdf"])
    )
    # the explorer (report.smk): every segment with each system's output and the gendered
    # words found in it (MT-GenEval's rule)
    declare_explorer(
        _name,
        "gendermt.benchmarks.declared.explorer",
        label=_declared["label"],
        inputs={
            "runs": [
                {**r, "path": f"{_out}/items/{r['system']}/{r['prompt']}.parquet"}
                for r in run_records(_name)
            ],
            "data": f"{_out}/data.parquet",
            "label": _declared["label"],
            "systems": list(BENCHMARK_CONFIG[_name].get("systems", [])),
        },
    )

    rule:
        name:
            f"declared_data_{_declared['rule']}"
        localrule: True
        input:
            provenanced(_declared["files"]),
        output:
            data=f"{_out}/data.parquet",
            provenance=f"{_out}/data.json",
        params:
            code=stage_code("gendermt.benchmarks.declared.data"),
            # what the data stage reads of the benchmark file, and the files' path, size and
            # sha256: a changed file reruns it
            spec=declared_data_view(_spec),
            languages=_declared["languages"],
            root=_declared["root"],
            data_sources=data_source_identity(_declared["files"]),
        log:
            f"{_log}/data.log",
        conda:
            env_file("core.yaml")
        script:
            "scripts/data.py"

    rule:
        name:
            f"declared_score_{_declared['rule']}"
        localrule: True
        input:
            translations=f"{_out}/translations/{{system}}/{{prompt}}.jsonl",
            data=f"{_out}/data.parquet",
            # its skipped_blank counts go into the run's summary
            provenance=f"{_out}/data.json",
        output:
            decisions=f"{_out}/items/{{system}}/{{prompt}}.parquet",
            decisions_csv=f"{_out}/items/{{system}}/{{prompt}}.csv",
            summary=f"{_out}/items/{{system}}/{{prompt}}.json",
        params:
            code=stage_code("gendermt.benchmarks.declared.evaluate"),
            genders=list(_spec["genders"]),
            metrics=_declared["metrics"],
            # sacrebleu options of its metrics (scoring.<metric>) and BLEU's tokenizers
            options={m: config.get("scoring", {}).get(m) or {} for m in _declared["metrics"]},
            tokenize=bleu_tokenizers(),
        log:
            f"{_log}/score/{{system}}/{{prompt}}.log",
        conda:
            env_file("core.yaml")
        script:
            "scripts/score.py"

    rule:
        name:
            f"declared_tables_{_declared['rule']}"
        localrule: True
        input:
            summaries=[r["summary"] for r in _runs],
            comet=_comet,
            data=f"{_out}/data.parquet",
        output:
            accuracy=table_report(
                f"{_out}/tables/accuracy.csv",
                caption="report/accuracy.rst",
                category=_declared["label"],
                subcategory="Tables",
            ),
            accuracy_md=f"{_out}/tables/accuracy.md",
            quality=table_report(
                f"{_out}/tables/quality.csv",
                caption="report/quality.rst",
                category=_declared["label"],
                subcategory="Tables",
            ),
            quality_md=f"{_out}/tables/quality.md",
            summary=table_report(
                f"{_out}/tables/summary.csv",
                caption="report/summary.rst",
                category=_declared["label"],
                subcategory="Tables",
            ),
            summary_md=f"{_out}/tables/summary.md",
        params:
            code=stage_code("gendermt.benchmarks.declared.tables"),
            runs=_runs,
            genders=list(_spec["genders"]),
            metrics=_declared["metrics"],
            label=_declared["label"],
        log:
            f"{_log}/tables.log",
        conda:
            env_file("core.yaml")
        script:
            "scripts/tables.py"

    rule:
        name:
            f"declared_figures_{_declared['rule']}"
        localrule: True
        input:
            accuracy=f"{_out}/tables/accuracy.csv",
        output:
            png=figure_report(
                f"{_out}/figures/accuracy.png",
                caption="report/figure.rst",
                category=_declared["label"],
                subcategory="Figures",
            ),
            pdf=f"{_out}/figures/accuracy.pdf",
        params:
            code=stage_code("gendermt.benchmarks.declared.figures"),
            genders=list(_spec["genders"]),
            label=_declared["label"],
        log:
            f"{_log}/figures.log",
        conda:
            env_file("plot.yaml")
        script:
            "scripts/figures.py"
