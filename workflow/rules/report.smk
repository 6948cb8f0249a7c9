# The report's own pages: every registered table (table_report in common.smk) as HTML, shown
# inline; and the front page: what the run shows (config files, data sources and whether each
# is a project sample, systems, commit, date), then the scorecard and its legend. Included
# last: every rule file has registered its tables by then.


# Only the tables this configuration makes (rules of unconfigured benchmarks exist too).
REPORT_TABLE_PAGES = {
    csv: {**spec, "html": csv[: -len(".csv")] + ".html"}
    for csv, spec in REPORT_TABLES.items()
    if csv in TARGETS
}
RUN_SUMMARY = run_summary_of(RUN, workflow.configfiles, config, workflow.basedir, SOURCE_HASHER)
SOURCE_HASHER.save()
if workflow.is_main_process:
    print(startup_line(RUN_SUMMARY), file=sys.stderr)

TARGETS.extend([spec["html"] for spec in REPORT_TABLE_PAGES.values()])
TARGETS.extend(
    expand(f"{RESULTS}/report/run.{{ext}}", ext=["json", "md"])
    + [f"{RESULTS}/report/front.html"]
)


rule report_tables:
    input:
        list(REPORT_TABLE_PAGES),
    output:
        **{
            f"table{i}": report(
                spec["html"],
                caption=spec["caption"],
                category=spec["category"],
                subcategory=spec["subcategory"],
                labels=spec["labels"],
            )
            for i, spec in enumerate(REPORT_TABLE_PAGES.values())
        },
    params:
        code=code_fingerprint("gendermt.htmltable"),
        tables={
            csv: {"html": spec["html"], "title": f"{spec['category']} · {spec['labels']['result']}"}
            for csv, spec in REPORT_TABLE_PAGES.items()
        },
    log:
        f"{LOGS}/report/tables.log",
    conda:
        "../../envs/core.yaml"
    script:
        "../scripts/report_tables.py"


rule run_summary:
    input:
        scorecard=rules.scorecard.output.html if SCORECARD_BENCHMARKS else [],
        legend=rules.scorecard.output.legend if SCORECARD_BENCHMARKS else [],
    output:
        json=f"{RESULTS}/report/run.json",
        md=f"{RESULTS}/report/run.md",
        html=f"{RESULTS}/report/front.html",
    params:
        code=code_fingerprint("gendermt.frontpage"),
        summary=RUN_SUMMARY,
    log:
        f"{LOGS}/report/run_summary.log",
    conda:
        "../../envs/core.yaml"
    script:
        "../scripts/run_summary.py"
