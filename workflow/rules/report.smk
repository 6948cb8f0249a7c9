import re

# The report's own pages: every registered table (table_report in common.smk) as HTML, shown
# inline; and the front page: what the run shows (config files, data sources and whether each
# is a project sample, systems, commit, date), then the scorecard and its legend. Included
# last: every rule file has registered its tables by then.


# Every table the rule files registered (table_report); one every benchmark writes (a rule
# with a {benchmark} wildcard: finish_reasons, output_checks) is registered once, as a
# pattern: one page per configured benchmark.
REPORT_TABLES = report_tables(BENCHMARK_CONFIG)

# Each benchmark's explorer (gendermt.report.explorer): every item with each system's output
# side by side, the gold and what was read, filters, in one self-contained page; its module and
# the inputs of its `read` come from the benchmark's rule file (declare_explorer).
from gendermt.workflow.targets import explorer_files


for _name, _explorer in explorers().items():
    declare_targets(_name, [f"{RESULTS}/{_name}/explorer.html"])

    rule:
        name:
            f"explorer_{_name.replace('-', '_')}"
        localrule: True
        input:
            explorer_files(_explorer["inputs"], RESULTS),
        output:
            html=report(
                f"{RESULTS}/{_name}/explorer.html",
                caption="../report/explorer.rst",
                category=_explorer["label"],
                subcategory="Explorer",
                labels={"result": "Explorer: every item, every system", "benchmark": _explorer["label"]},
            ),
        params:
            code=stage_code("gendermt.report.explorer_page", _explorer["module"]),
            module=_explorer["module"],
            inputs=_explorer["inputs"],
            label=_explorer["label"],
        log:
            f"{LOGS}/{_name}/explorer.log",
        conda:
            "../../envs/core.yaml"
        script:
            "../scripts/explore.py"


# Only the tables this configuration makes (rules of unconfigured benchmarks exist too).
_DECLARED = set(declared_targets())
REPORT_TABLE_PAGES = {
    csv: {**spec, "html": csv[: -len(".csv")] + ".html"}
    for csv, spec in REPORT_TABLES.items()
    if csv in _DECLARED
}
RUN_SUMMARY = run_summary_of(RUN, workflow.configfiles, config, workflow.basedir, SOURCE_HASHER,
                             DATASETS)
SOURCE_HASHER.save()
if workflow.is_main_process:
    print(startup_line(RUN_SUMMARY), file=sys.stderr)
    # the report's front page warns when this config is not the one the results were made
    # from (workflow/report/workflow.rst includes the note; empty when they agree)
    write_report_note(
        RUN_SUMMARY, f"{RESULTS}/report/run.json", f".snakemake/gendermt/report-note-{RUN}.html"
    )

declare_targets(
    "report",
    [spec["html"] for spec in REPORT_TABLE_PAGES.values()]
    + expand(f"{RESULTS}/report/run.{{ext}}", ext=["json", "md"])
    + [f"{RESULTS}/report/front.html"],
)


# One page job per rule that writes tables, with that rule's params: a caption is rendered
# with the params of the job whose output it describes (captions read them, e.g.
# snakemake.params.clean_outlier).
REPORT_TABLE_RULES: dict[str, list[str]] = {}
for _rule in workflow.rules:
    for _out in _rule.output:
        # an output's wildcards carry the global constraints: {benchmark,[A-Za-z0-9_-]+}
        _plain = re.sub(r"\{benchmark,[^{}]*\}", "{benchmark}", str(_out))
        _paths = (
            [_plain.replace("{benchmark}", _name) for _name in BENCHMARK_CONFIG]
            if "{benchmark}" in _plain
            else [str(_out)]
        )
        for _path in _paths:
            if _path in REPORT_TABLE_PAGES:
                REPORT_TABLE_RULES.setdefault(_rule.name, []).append(_path)


localrules: run_summary


for _source_rule, _tables in REPORT_TABLE_RULES.items():

    rule:
        name:
            f"report_tables_{_source_rule}"
        localrule: True
        input:
            _tables,
        output:
            **{
                f"table{i}": report(
                    REPORT_TABLE_PAGES[csv]["html"],
                    caption=REPORT_TABLE_PAGES[csv]["caption"],
                    category=REPORT_TABLE_PAGES[csv]["category"],
                    subcategory=REPORT_TABLE_PAGES[csv]["subcategory"],
                    labels=REPORT_TABLE_PAGES[csv]["labels"],
                )
                for i, csv in enumerate(_tables)
            },
        params:
            **{
                key: value
                for key, value in workflow.get_rule(_source_rule).params.items()
                # not its code fingerprint: this job runs gendermt.report.htmltable only
                if not callable(value) and key != "code"
            },
            html_code=stage_code("gendermt.report.htmltable"),
            html_pages={
                csv: {
                    "html": REPORT_TABLE_PAGES[csv]["html"],
                    "title": f"{REPORT_TABLE_PAGES[csv]['category']} · "
                    f"{REPORT_TABLE_PAGES[csv]['labels']['result']}",
                }
                for csv in _tables
            },
        log:
            f"{LOGS}/report/tables_{_source_rule}.log",
        conda:
            "../../envs/core.yaml"
        script:
            "../scripts/report_tables.py"


rule run_summary:
    input:
        scorecard=rules.scorecard.output.html if SCORECARD_KEYS else [],
        legend=rules.scorecard.output.legend if SCORECARD_KEYS else [],
    output:
        json=f"{RESULTS}/report/run.json",
        md=f"{RESULTS}/report/run.md",
        html=f"{RESULTS}/report/front.html",
    params:
        code=stage_code("gendermt.report.frontpage"),
        summary=RUN_SUMMARY,
    log:
        f"{LOGS}/report/run_summary.log",
    conda:
        "../../envs/core.yaml"
    script:
        "../scripts/run_summary.py"
