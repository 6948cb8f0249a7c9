# WinoMT (Stanovsky et al. 2019): en.txt (+ pro/anti subsets) → data.parquet; each system's
# translations per target language (the prompts are named by it: fr, es, it, de) → the
# entity's gender and WinoMT's metrics; then a table and a figure comparing systems.

import re
from pathlib import Path
from types import SimpleNamespace

from gendermt.benchmarks.winomt.adjectives import source_of
from gendermt.benchmarks.winomt.whole_file import whole_inputs

WINOMT = benchmark_spec("winomt")
WINOMT_DATA = WINOMT.get("data", {})
WINOMT_RAW = [WINOMT_DATA[k] for k in ("path", "pro", "anti") if k in WINOMT_DATA]
WINOMT_SYSTEMS = WINOMT.get("systems", [])
# every reader scores every run; the first is the headline (summary table, figure, scorecard)
WINOMT_READERS = WINOMT.get("readers", ["corrected"])
# the paper's figures: one CSV (Table 2's) or several (the academic systems' table beside it)
WINOMT_PUBLISHED = WINOMT.get("published", "resources/winomt/stanovsky2019_table2.csv")
WINOMT_PUBLISHED = [WINOMT_PUBLISHED] if isinstance(WINOMT_PUBLISHED, str) else WINOMT_PUBLISHED
# the corrected reader's known translations of each occupation (lexicon.py)
WINOMT_LEXICON = "resources/winomt/occupation_translations.tsv"
# (system, language) of every run: each system in each language, or in those
# `system_prompts` gives it (a system built for one language pair, like Apertium en→es)
WINOMT_RUNS = [(r["system"], r["prompt"]) for r in run_records("winomt")]  # prompt: a language
# Systems that run every language are scored together, one job per language (winomt_gender);
# a system that runs only some gets a job per language of its own (winomt_gender_apart).
WINOMT_APART = [s for s in WINOMT_SYSTEMS if s in WINOMT.get("system_prompts", {})]
WINOMT_TOGETHER = [s for s in WINOMT_SYSTEMS if s not in WINOMT_APART]
# On a subset, the systems aligned on their translations of the whole set, the subset read
# after (`alignment_corpus: whole`; gendermt.benchmarks.winomt.whole_file): without a subset
# their translations are the whole file already
WINOMT_WHOLE = [
    s
    for s in WINOMT_SYSTEMS
    if WINOMT.get("subset") and WINOMT.get("alignment_corpus", {}).get(s) == "whole"
]


WINOMT_SUMMARIES = [
    f"{RESULTS}/winomt/gender/{reader}/{system}/{lang}.json"
    for reader in WINOMT_READERS[:1]
    for system, lang in WINOMT_RUNS
]
WINOMT_ALL_SUMMARIES = [
    f"{RESULTS}/winomt/gender/{reader}/{system}/{lang}.json"
    for reader in WINOMT_READERS
    for system, lang in WINOMT_RUNS
]

# the headline reader's per-sentence tables (occupations.csv)
WINOMT_HEADLINE_TABLES = [
    f"{RESULTS}/winomt/gender/{WINOMT_READERS[0]}/{system}/{lang}.parquet"
    for system, lang in WINOMT_RUNS
]
# the explorer (report.smk): every sentence with each system's translation and the headline
# reader's gender and evidence
declare_explorer(
    "winomt",
    "gendermt.benchmarks.winomt.explorer",
    label="WinoMT",
    inputs={
        "runs": [
            {"system": system, "prompt": lang, "path": path}
            for (system, lang), path in zip(WINOMT_RUNS, WINOMT_HEADLINE_TABLES)
        ],
        "reader": WINOMT_READERS[0],
        "systems": WINOMT_SYSTEMS,
    },
)
# human gender labels of translated entities ({lang}.tsv): tables/validation.csv when named
WINOMT_LABELS = WINOMT.get("validation_labels")
WINOMT_LABEL_FILES = sorted(str(p) for p in Path(WINOMT_LABELS).glob("*.tsv")) if WINOMT_LABELS else []
# further named label sets (e.g. people: the WinoMT authors' native-speaker annotators):
# tables/validation_{name}.csv each, beside validation.csv
WINOMT_LABEL_SETS = {
    name: sorted(str(p) for p in Path(folder).glob("*.tsv"))
    for name, folder in WINOMT.get("validation_label_sets", {}).items()
}

# The adjective experiment (gendermt.benchmarks.winomt.adjectives): plain system → its
# translations of the anti-stereotypical sentences with the adjective, in every language the
# plain system runs
WINOMT_ADJ = WINOMT.get("adjectives", {})
WINOMT_ADJ_RUNS = [(s, lang) for s, lang in WINOMT_RUNS if s in WINOMT_ADJ.get("systems", {})]


declare_targets(
    "winomt",
    [f"{RESULTS}/winomt/tables/summary.csv", f"{RESULTS}/winomt/tables/readers.csv",
     f"{RESULTS}/winomt/tables/occupations.csv", f"{RESULTS}/winomt/tables/paper.csv"]
    + ([f"{RESULTS}/winomt/tables/adjectives.csv"]
       + expand(f"{RESULTS}/winomt/figures/adjectives.{{ext}}", ext=["png", "pdf"])
       if WINOMT_ADJ_RUNS else [])
    + expand(f"{RESULTS}/winomt/figures/systems.{{ext}}", ext=["png", "pdf"])
    + ([f"{RESULTS}/winomt/tables/validation.csv"] if WINOMT_LABELS else [])
    + [f"{RESULTS}/winomt/tables/validation_{name}.csv" for name in WINOMT_LABEL_SETS]
)


localrules: winomt_data, winomt_full_data, winomt_tables, winomt_figures, winomt_readers, winomt_occupations, winomt_paper, winomt_adjectives_table, winomt_adjectives_figure


rule winomt_data:
    input:
        provenanced(WINOMT_RAW),
    output:
        data=f"{RESULTS}/winomt/data.parquet",
        provenance=f"{RESULTS}/winomt/data.json",
    params:
        code=stage_code("gendermt.benchmarks.winomt.data", "gendermt.data.provenance",
                              "gendermt.data.subsets"),
        # path, size and sha256 of what it reads: a changed source reruns it
        data_sources=data_source_identity(WINOMT_RAW),
        # the declared public data sets they come from (recorded in data.json)
        datasets=datasets_of(WINOMT_RAW),
        source=WINOMT_DATA,
        # a study's stratified, seeded subset (gendermt.data.subsets); absent: the whole set
        **({"subset": WINOMT["subset"]} if WINOMT.get("subset") else {}),
    log:
        f"{LOGS}/winomt/data.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/data.py"


# The whole set (no subset), for the systems aligned on their whole file: the data stage's
# build without its subset step (its own job: the subset's data stage and everything after
# it stay as they are)
rule winomt_full_data:
    input:
        provenanced(WINOMT_RAW),
    output:
        data=f"{RESULTS}/winomt/data_full.parquet",
        provenance=f"{RESULTS}/winomt/data_full.json",
    params:
        code=stage_code("gendermt.benchmarks.winomt.data"),
        data_sources=data_source_identity(WINOMT_RAW),
        source=WINOMT_DATA,
    log:
        f"{LOGS}/winomt/data_full.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/full_data.py"


# A whole-file system's translations of the whole set, for alignment only (a stored file read
# in full, Apertium on every sentence): the scoring job checks that its lines at the subset's
# items are the lines it scores
rule winomt_whole:
    input:
        data=f"{RESULTS}/winomt/data_full.parquet",
        stored=lambda wildcards: stored_outputs_of(
            SimpleNamespace(benchmark="winomt", system=wildcards.system, prompt=wildcards.lang)
        ),
    output:
        f"{RESULTS}/winomt/whole/{{system}}/{{lang}}.jsonl",
    wildcard_constraints:
        system="|".join(re.escape(s) for s in WINOMT_WHOLE) or "(?!)",
    params:
        code=lambda wildcards: stage_code(
            "gendermt.benchmarks.winomt.whole_file", *system_modules(SYSTEMS[wildcards.system])
        ),
        settings=lambda wildcards: output_settings(
            settings_on(config, "winomt", wildcards.system)
        ),
        postprocess=WINOMT.get("postprocess", []),
    resources:
        **node_resources("winomt_whole"),
    log:
        f"{LOGS}/winomt/whole/{{system}}/{{lang}}.log",
    benchmark:
        f"{RESULTS}/benchmarks/winomt/whole/{{system}}/{{lang}}.tsv"
    conda:
        env_file("translate.yaml")
    script:
        "scripts/whole.py"


# One job per target language: spaCy is loaded once, and each system's file is aligned
# once per reader's tokenisation (each file on its own: a system's links never depend on
# which other systems the study has).
rule winomt_gender:
    input:
        # on a subset: the whole-file systems' translations of the whole set and its data
        unpack(whole_inputs(RESULTS, WINOMT_WHOLE, lambda wildcards: WINOMT_TOGETHER)),
        translations=expand(
            f"{RESULTS}/winomt/translations/{{system}}/{{{{lang}}}}.jsonl", system=WINOMT_TOGETHER
        ),
        data=f"{RESULTS}/winomt/data.parquet",
        lexicon=WINOMT_LEXICON,
    output:
        tables=expand(
            f"{RESULTS}/winomt/gender/{{reader}}/{{system}}/{{{{lang}}}}.parquet",
            reader=WINOMT_READERS,
            system=WINOMT_TOGETHER,
        ),
        csvs=expand(
            f"{RESULTS}/winomt/gender/{{reader}}/{{system}}/{{{{lang}}}}.csv",
            reader=WINOMT_READERS,
            system=WINOMT_TOGETHER,
        ),
        summaries=expand(
            f"{RESULTS}/winomt/gender/{{reader}}/{{system}}/{{{{lang}}}}.json",
            reader=WINOMT_READERS,
            system=WINOMT_TOGETHER,
        ),
    params:
        code=stage_code("gendermt.benchmarks.winomt.evaluate"),
        alignment=WINOMT.get("alignment", {}),
        readers=WINOMT_READERS,
        systems=WINOMT_TOGETHER,
        # the original readers' token genders per language (spacy or rules)
        morphology=WINOMT.get("morphology", {}),
        # the systems aligned on their whole file (the whole input's order)
        whole=lambda wildcards: [s for s in WINOMT_TOGETHER if s in WINOMT_WHOLE],
    resources:
        **node_resources("winomt_gender"),
    log:
        f"{LOGS}/winomt/gender/{{lang}}.log",
    benchmark:
        f"{RESULTS}/benchmarks/winomt/gender/{{lang}}.tsv"
    conda:
        env_file("winomt.yaml")
    script:
        "scripts/gender.py"


# A system that runs only some languages: its own job per language (same scoring; spaCy is
# loaded once more per such job).
rule winomt_gender_apart:
    input:
        unpack(whole_inputs(RESULTS, WINOMT_WHOLE, lambda wildcards: [wildcards.system])),
        # a list (of one): the scoring stage takes one file per system
        translations=[f"{RESULTS}/winomt/translations/{{system}}/{{lang}}.jsonl"],
        data=f"{RESULTS}/winomt/data.parquet",
        lexicon=WINOMT_LEXICON,
    output:
        tables=expand(
            f"{RESULTS}/winomt/gender/{{reader}}/{{{{system}}}}/{{{{lang}}}}.parquet",
            reader=WINOMT_READERS,
        ),
        csvs=expand(
            f"{RESULTS}/winomt/gender/{{reader}}/{{{{system}}}}/{{{{lang}}}}.csv",
            reader=WINOMT_READERS,
        ),
        summaries=expand(
            f"{RESULTS}/winomt/gender/{{reader}}/{{{{system}}}}/{{{{lang}}}}.json",
            reader=WINOMT_READERS,
        ),
    wildcard_constraints:
        # only the systems named in system_prompts (none: a pattern nothing matches)
        system="|".join(re.escape(s) for s in WINOMT_APART) or "(?!)",
    params:
        code=stage_code("gendermt.benchmarks.winomt.evaluate"),
        alignment=WINOMT.get("alignment", {}),
        readers=WINOMT_READERS,
        systems=lambda wildcards: [wildcards.system],
        morphology=WINOMT.get("morphology", {}),
        whole=lambda wildcards: [wildcards.system] if wildcards.system in WINOMT_WHOLE else [],
    resources:
        **node_resources("winomt_gender_apart"),
    log:
        f"{LOGS}/winomt/gender/{{system}}/{{lang}}.log",
    benchmark:
        f"{RESULTS}/benchmarks/winomt/gender/{{system}}/{{lang}}.tsv"
    conda:
        env_file("winomt.yaml")
    script:
        "scripts/gender.py"


rule winomt_tables:
    input:
        summaries=WINOMT_SUMMARIES,
    output:
        csv=table_report(
            f"{RESULTS}/winomt/tables/summary.csv",
            caption="report/summary.rst",
            category="WinoMT",
            subcategory="Tables",
        ),
        md=f"{RESULTS}/winomt/tables/summary.md",
    params:
        code=stage_code("gendermt.benchmarks.winomt.tables"),
        systems=WINOMT.get("systems"),
        langs=WINOMT.get("prompts"),
    log:
        f"{LOGS}/winomt/tables.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/tables.py"


rule winomt_readers:
    input:
        summaries=WINOMT_ALL_SUMMARIES,
        published=WINOMT_PUBLISHED,
    output:
        csv=table_report(
            f"{RESULTS}/winomt/tables/readers.csv",
            caption="report/readers.rst",
            category="WinoMT",
            subcategory="Tables",
        ),
        md=f"{RESULTS}/winomt/tables/readers.md",
    params:
        code=stage_code("gendermt.benchmarks.winomt.tables"),
        systems=WINOMT_SYSTEMS,
        langs=WINOMT.get("prompts"),
        readers=WINOMT_READERS,
    log:
        f"{LOGS}/winomt/readers.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/readers.py"


rule winomt_occupations:
    input:
        tables=WINOMT_HEADLINE_TABLES,
    output:
        csv=table_report(
            f"{RESULTS}/winomt/tables/occupations.csv",
            caption="report/occupations.rst",
            category="WinoMT",
            subcategory="Tables",
        ),
        md=f"{RESULTS}/winomt/tables/occupations.md",
    params:
        code=stage_code("gendermt.benchmarks.winomt.tables"),
        systems=WINOMT.get("systems"),
        langs=WINOMT.get("prompts"),
    log:
        f"{LOGS}/winomt/occupations.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/occupations.py"


# Each reader against people: the labelled items' readings, from the per-sentence tables
# (made on the whole file of each system and language)
if WINOMT_LABELS:

    localrules: winomt_validation

    rule winomt_validation:
        input:
            labels=WINOMT_LABEL_FILES,
            tables=[
                f"{RESULTS}/winomt/gender/{reader}/{system}/{lang}.parquet"
                for reader in WINOMT_READERS
                for system, lang in WINOMT_RUNS
            ],
        output:
            csv=table_report(
                f"{RESULTS}/winomt/tables/validation.csv",
                caption="report/validation.rst",
                category="WinoMT",
                subcategory="Tables",
            ),
            md=f"{RESULTS}/winomt/tables/validation.md",
        params:
            code=stage_code("gendermt.benchmarks.winomt.validation"),
            runs=[list(run) for run in WINOMT_RUNS],
            readers=WINOMT_READERS,
            label_set=None,
        log:
            f"{LOGS}/winomt/validation.log",
        conda:
            env_file("core.yaml")
        script:
            "scripts/validation.py"


# The same for each named label set (one rule each: its table is a page of the report)
for _set, _files in WINOMT_LABEL_SETS.items():

    rule:
        name:
            f"winomt_validation_{_set}"
        localrule: True
        input:
            labels=_files,
            tables=[
                f"{RESULTS}/winomt/gender/{reader}/{system}/{lang}.parquet"
                for reader in WINOMT_READERS
                for system, lang in WINOMT_RUNS
            ],
        output:
            csv=table_report(
                f"{RESULTS}/winomt/tables/validation_{_set}.csv",
                caption="report/validation_set.rst",
                category="WinoMT",
                subcategory="Tables",
            ),
            md=f"{RESULTS}/winomt/tables/validation_{_set}.md",
        params:
            code=stage_code("gendermt.benchmarks.winomt.validation"),
            runs=[list(run) for run in WINOMT_RUNS],
            readers=WINOMT_READERS,
            label_set=_set,
        log:
            f"{LOGS}/winomt/validation_{_set}.log",
        conda:
            env_file("core.yaml")
        script:
            "scripts/validation.py"


rule winomt_figures:
    input:
        summaries=WINOMT_SUMMARIES,
        # runs whose outputs are not translations are drawn as low quality
        checks=output_checks_table("winomt"),
        # error bars where the workflow computes the intervals (optional)
        intervals=optional_intervals("winomt"),
    output:
        png=figure_report(
            f"{RESULTS}/winomt/figures/systems.png",
            caption="report/systems.rst",
            category="WinoMT",
            subcategory="Figures",
        ),
        pdf=f"{RESULTS}/winomt/figures/systems.pdf",
    params:
        code=stage_code("gendermt.benchmarks.winomt.figures"),
        systems=WINOMT.get("systems"),
        langs=WINOMT.get("prompts"),
        kinds=system_kinds(WINOMT.get("systems", [])),
        quality_floors=config.get("scorecard", {}).get("quality_floors", {}),
    log:
        f"{LOGS}/winomt/figures.log",
    conda:
        env_file("plot.yaml")
    script:
        "scripts/figures.py"


# The headline figures' intervals and paired tests over sentences (the headline reader's
# per-sentence tables; gendermt.benchmarks.winomt.intervals).

localrules: winomt_intervals


rule winomt_intervals:
    input:
        tables=[
            f"{RESULTS}/winomt/gender/{WINOMT_READERS[0]}/{system}/{lang}.parquet"
            for system, lang in WINOMT_RUNS
        ],
    output:
        **interval_outputs("winomt", "WinoMT"),
    params:
        code=stage_code(
            "gendermt.benchmarks.winomt.intervals",
            "gendermt.analysis.intervals",
            "gendermt.analysis.resample",
        ),
        runs=[
            {
                "system": system,
                "lang": lang,
                "path": f"{RESULTS}/winomt/gender/{WINOMT_READERS[0]}/{system}/{lang}.parquet",
            }
            for system, lang in WINOMT_RUNS
        ],
        reader=WINOMT_READERS[0],
        bootstrap=statistics_settings().get("bootstrap", {}),
    log:
        f"{LOGS}/winomt/intervals.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/intervals.py"


# The paper's tables (Table 2, the academic systems') beside every reader, each reader's
# figure with its interval over sentences, and the file each run read (its commit)
rule winomt_paper:
    input:
        tables=[
            f"{RESULTS}/winomt/gender/{reader}/{system}/{lang}.parquet"
            for reader in WINOMT_READERS
            for system, lang in WINOMT_RUNS
        ],
        published=WINOMT_PUBLISHED,
    output:
        csv=table_report(
            f"{RESULTS}/winomt/tables/paper.csv",
            caption="report/paper.rst",
            category="WinoMT",
            subcategory="Tables",
        ),
        md=f"{RESULTS}/winomt/tables/paper.md",
    params:
        code=stage_code("gendermt.benchmarks.winomt.paper",
                              "gendermt.benchmarks.winomt.intervals",
                              "gendermt.analysis.intervals", "gendermt.analysis.resample"),
        runs=[
            {"system": system, "lang": lang, "reader": reader,
             "path": f"{RESULTS}/winomt/gender/{reader}/{system}/{lang}.parquet"}
            for reader in WINOMT_READERS
            for system, lang in WINOMT_RUNS
        ],
        # a stored system's file and commit (a system run here has none)
        sources={
            f"{system}/{lang}": source_of(
                datasets_of([SYSTEMS[system]["path"].format(prompt=lang)]),
                SYSTEMS[system]["path"].format(prompt=lang),
            )
            for system, lang in WINOMT_RUNS
            if SYSTEMS[system].get("backend") == "stored"
        },
        bootstrap=statistics_settings().get("bootstrap", {}),
        systems=WINOMT_SYSTEMS,
        langs=WINOMT.get("prompts"),
    log:
        f"{LOGS}/winomt/paper.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/paper.py"


# One system's adjective file in one language, read by every reader and paired with the plain
# system's reading of the same items
rule winomt_adjectives:
    input:
        data=f"{RESULTS}/winomt/data.parquet",
        anti=provenanced(WINOMT_DATA.get("anti", [])),
        translations=lambda wildcards: provenanced(
            WINOMT_ADJ["systems"][wildcards.system].format(prompt=wildcards.lang)
        ),
        plain=expand(
            f"{RESULTS}/winomt/gender/{{reader}}/{{{{system}}}}/{{{{lang}}}}.parquet",
            reader=WINOMT_READERS,
        ),
        lexicon=WINOMT_LEXICON,
    output:
        table=f"{RESULTS}/winomt/adjectives/{{system}}/{{lang}}.parquet",
        summary=f"{RESULTS}/winomt/adjectives/{{system}}/{{lang}}.json",
    wildcard_constraints:
        system="|".join(re.escape(s) for s, _ in WINOMT_ADJ_RUNS) or "(?!)",
    params:
        code=stage_code("gendermt.benchmarks.winomt.adjectives",
                              "gendermt.benchmarks.winomt.evaluate",
                              "gendermt.analysis.resample"),
        data_sources=lambda wildcards: data_source_identity([
            WINOMT_ADJ["systems"][wildcards.system].format(prompt=wildcards.lang)]),
        # the file's repository path and commit (its data set's manifest)
        source=lambda wildcards: source_of(
            datasets_of([WINOMT_ADJ["systems"][wildcards.system].format(prompt=wildcards.lang)]),
            WINOMT_ADJ["systems"][wildcards.system].format(prompt=wildcards.lang),
        ),
        readers=WINOMT_READERS,
        alignment=WINOMT.get("alignment", {}),
        morphology=WINOMT.get("morphology", {}),
        bootstrap=statistics_settings().get("bootstrap", {}),
    resources:
        **node_resources("winomt_adjectives"),
    log:
        f"{LOGS}/winomt/adjectives/{{system}}/{{lang}}.log",
    benchmark:
        f"{RESULTS}/benchmarks/winomt/adjectives/{{system}}/{{lang}}.tsv"
    conda:
        env_file("winomt.yaml")
    script:
        "scripts/adjectives.py"


rule winomt_adjectives_table:
    input:
        summaries=[f"{RESULTS}/winomt/adjectives/{system}/{lang}.json"
                   for system, lang in WINOMT_ADJ_RUNS],
        published=WINOMT_ADJ.get("published", []),
    output:
        csv=table_report(
            f"{RESULTS}/winomt/tables/adjectives.csv",
            caption="report/adjectives.rst",
            category="WinoMT",
            subcategory="Tables",
        ),
        md=f"{RESULTS}/winomt/tables/adjectives.md",
    params:
        code=stage_code("gendermt.benchmarks.winomt.adjectives_table"),
        systems=WINOMT_SYSTEMS,
        langs=WINOMT.get("prompts"),
    log:
        f"{LOGS}/winomt/adjectives_table.log",
    conda:
        env_file("core.yaml")
    script:
        "scripts/adjectives_table.py"


rule winomt_adjectives_figure:
    input:
        csv=f"{RESULTS}/winomt/tables/adjectives.csv",
    output:
        png=figure_report(
            f"{RESULTS}/winomt/figures/adjectives.png",
            caption="report/adjectives_figure.rst",
            category="WinoMT",
            subcategory="Figures",
        ),
        pdf=f"{RESULTS}/winomt/figures/adjectives.pdf",
    params:
        code=stage_code("gendermt.benchmarks.winomt.adjectives_figure"),
    log:
        f"{LOGS}/winomt/adjectives_figure.log",
    conda:
        env_file("plot.yaml")
    script:
        "scripts/adjectives_figure.py"

# Pairs of systems compared on the same sentences (`compare:`, e.g. a service's 2019 published
# output → the live service): per target language a table and a figure of each one's accuracy
# and ΔG and the change with its paired interval (gendermt.benchmarks.winomt.compare).
from gendermt.benchmarks.winomt.compare import compare_languages, pair_languages, pairs_of

WINOMT_COMPARE = pairs_of(WINOMT)
WINOMT_COMPARE_LANGS = compare_languages(WINOMT)
# the headline reader's per-sentence table of each compared system in each language it runs
WINOMT_COMPARE_RUNS = [
    {
        "system": system,
        "lang": lang,
        "path": f"{RESULTS}/winomt/gender/{WINOMT_READERS[0]}/{system}/{lang}.parquet",
    }
    for system, lang in dict.fromkeys(
        (pair[side], lang)
        for pair in WINOMT_COMPARE
        for lang in pair_languages(WINOMT, pair)
        for side in ("before", "after")
    )
]

if WINOMT_COMPARE:
    declare_targets(
        "winomt",
        expand(f"{RESULTS}/winomt/tables/compare_{{lang}}.csv", lang=WINOMT_COMPARE_LANGS)
        + expand(
            f"{RESULTS}/winomt/figures/compare_{{lang}}.{{ext}}",
            lang=WINOMT_COMPARE_LANGS,
            ext=["png", "pdf"],
        )
    )

    localrules: winomt_compare, winomt_compare_figures

    rule winomt_compare:
        input:
            tables=[run["path"] for run in WINOMT_COMPARE_RUNS],
        output:
            **{
                f"csv_{lang}": table_report(
                    f"{RESULTS}/winomt/tables/compare_{lang}.csv",
                    caption="report/compare.rst",
                    category="WinoMT",
                    subcategory="Tables",
                )
                for lang in WINOMT_COMPARE_LANGS
            },
            **{f"md_{lang}": f"{RESULTS}/winomt/tables/compare_{lang}.md" for lang in WINOMT_COMPARE_LANGS},
        params:
            code=stage_code(
                "gendermt.benchmarks.winomt.compare",
                "gendermt.benchmarks.winomt.intervals",
                "gendermt.analysis.resample",
            ),
            pairs=WINOMT_COMPARE,
            runs=WINOMT_COMPARE_RUNS,
            reader=WINOMT_READERS[0],
            bootstrap=statistics_settings().get("bootstrap", {}),
        log:
            f"{LOGS}/winomt/compare.log",
        conda:
            env_file("core.yaml")
        script:
            "scripts/compare.py"

    rule winomt_compare_figures:
        input:
            **{f"csv_{lang}": f"{RESULTS}/winomt/tables/compare_{lang}.csv" for lang in WINOMT_COMPARE_LANGS},
        output:
            **{
                f"png_{lang}": figure_report(
                    f"{RESULTS}/winomt/figures/compare_{lang}.png",
                    caption="report/compare_figure.rst",
                    category="WinoMT",
                    subcategory="Figures",
                )
                for lang in WINOMT_COMPARE_LANGS
            },
            **{f"pdf_{lang}": f"{RESULTS}/winomt/figures/compare_{lang}.pdf" for lang in WINOMT_COMPARE_LANGS},
        params:
            code=stage_code("gendermt.benchmarks.winomt.compare_figures"),
        log:
            f"{LOGS}/winomt/compare_figures.log",
        conda:
            env_file("plot.yaml")
        script:
            "scripts/compare_figures.py"
