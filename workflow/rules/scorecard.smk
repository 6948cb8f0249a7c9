# The scorecard: every configured benchmark's headline figures per system, side by side,
# read from the benchmarks' own tables. Its category sorts first in the HTML report
# ("All benchmarks" before the benchmarks' names) and the report's front page links to it.
from gendermt.scorecard.figures import CONFIG_KEYS as SCORECARD_KEY_OF
from gendermt.scorecard.figures import TABLES as SCORECARD_TABLES
from gendermt.scorecard.figures import reader_modules
from gendermt.scorecard.kinds import kinds_of as scorecard_kinds_of

# the benchmarks' scorecard readers (the scorecard job runs them all)
SCORECARD_READERS = reader_modules()

# Scorecard keys of the configured benchmarks (GAMBIT's column is "grape", for its metric).
SCORECARD_KEYS = [
    SCORECARD_KEY_OF.get(name, name)
    for name in BENCHMARK_CONFIG
    if SCORECARD_KEY_OF.get(name, name) in SCORECARD_TABLES
]
# Each benchmark's runs counted for echoes and wrong-language outputs (the output_checks rule,
# score.smk): the scorecard marks a run below its clean-share floor as low quality.
SCORECARD_CHECKS = [
    f"{RESULTS}/{name}/tables/output_checks.csv"
    for name in BENCHMARK_CONFIG
    if SCORECARD_KEY_OF.get(name, name) in SCORECARD_TABLES
]
# Each system's headline prompt per benchmark: the config's, else the first of the
# benchmark's prompts it ran (its runs in config order).
SCORECARD_HEADLINES = config.get("scorecard", {}).get("headline_prompts", {})
SCORECARD_PROMPT_ORDER = {
    SCORECARD_KEY_OF.get(name, name): list(BENCHMARK_CONFIG[name].get("prompts", []))
    for name in BENCHMARK_CONFIG
    if SCORECARD_KEY_OF.get(name, name) in SCORECARD_TABLES
}
# What their readers read beyond their tables (declared by their rule files), by keyword.
_READER_INPUTS = scorecard_inputs()
SCORECARD_READER_INPUTS = {
    key: _READER_INPUTS[key] for key in SCORECARD_KEYS if key in _READER_INPUTS
}

if SCORECARD_KEYS:
    declare_targets(
        "scorecard",
        expand(
            f"{RESULTS}/scorecard/scorecard.{{ext}}",
            ext=["csv", "md", "tex", "json", "png", "pdf", "html"],
        )
        + [f"{RESULTS}/scorecard/legend.csv"]
    )


localrules: scorecard


rule scorecard:
    input:
        tables=[
            f"{RESULTS}/{table}"
            for name in SCORECARD_KEYS
            for table in SCORECARD_TABLES[name]
        ],
        # files, or records of runs' files ({system, prompt, path})
        readers=[
            f["path"] if isinstance(f, dict) else f
            for files in SCORECARD_READER_INPUTS.values()
            for fs in files.values()
            for f in fs
        ],
        checks=SCORECARD_CHECKS,
        # the benchmarks' intervals and paired tests of their headline figures
        intervals=[
            table
            for name in BENCHMARK_CONFIG
            if SCORECARD_KEY_OF.get(name, name) in SCORECARD_TABLES
            for table in interval_tables(name)
        ],
    output:
        csv=f"{RESULTS}/scorecard/scorecard.csv",
        # the scorecard as the report shows it: a table tinted per column (sortable)
        html=figure_report(
            f"{RESULTS}/scorecard/scorecard.html",
            caption="../report/scorecard.rst",
            category="All benchmarks",
            subcategory="Scorecard",
        ),
        png=figure_report(
            f"{RESULTS}/scorecard/scorecard.png",
            caption="../report/scorecard_figure.rst",
            category="All benchmarks",
            subcategory="Scorecard",
        ),
        legend=table_report(
            f"{RESULTS}/scorecard/legend.csv",
            caption="../report/scorecard_legend.rst",
            category="All benchmarks",
            subcategory="Scorecard",
        ),
        md=f"{RESULTS}/scorecard/scorecard.md",
        tex=f"{RESULTS}/scorecard/scorecard.tex",
        json=f"{RESULTS}/scorecard/scorecard.json",
        pdf=f"{RESULTS}/scorecard/scorecard.pdf",
    params:
        code=stage_code("gendermt.scorecard.stage", *SCORECARD_READERS),
        benchmarks=SCORECARD_KEYS,
        systems=list(config["systems"]),
        bootstrap=statistics_settings().get("bootstrap", {}),
        floors=config.get("scorecard", {}).get("quality_floors", {}),
        reader_inputs=SCORECARD_READER_INPUTS,
        headline=SCORECARD_HEADLINES,
        prompt_order=SCORECARD_PROMPT_ORDER,
        # each system's kind (model, baseline, oracle): oracles never lead a figure
        kinds=scorecard_kinds_of(config["systems"]),
    log:
        f"{LOGS}/scorecard/scorecard.log",
    conda:
        "../../envs/plot.yaml"
    script:
        "../scripts/scorecard.py"
