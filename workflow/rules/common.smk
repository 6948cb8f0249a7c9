# Config validation and the helper functions the rules use (no logic beyond lookups).
import os
import sys
from pathlib import Path

from snakemake.exceptions import WorkflowError

# gendermt is imported from this checkout, so that the package, the workflow that calls it
# and the code fingerprints below are always the same version: first on this process's path,
# and first on the jobs' (Snakemake only appends its own path to a job's sys.path, after
# site-packages, where another installed gendermt would win; in a conda env there is none).
SRC = str(Path(workflow.basedir) / "src")
sys.path.insert(0, SRC)
os.environ.update(PYTHONPATH=os.pathsep.join(filter(None, [SRC, os.environ.get("PYTHONPATH")])))

# Start-up work memoised by file content (code fingerprints' import parsing, validated
# reference files): .snakemake/gendermt/startup.json.
from gendermt.workflow import startup_cache

startup_cache.enable(Path(".snakemake/gendermt/startup.json").resolve())

# Snakemake's parse of the rule files included after this one, memoised by their content
# (gendermt.workflow.rule_file_cache): about 0.06 s of CPU on every snakemake call.
from gendermt.workflow import rule_file_cache

rule_file_cache.install(sys.modules[type(workflow).__module__])

# a script: rule's code is compared through its `code` param, not by the path of its script
# (gendermt.workflow.script_rules): moving a script reruns nothing
from gendermt.workflow import script_rules

script_rules.install()

from gendermt.translation.backends import (
    output_settings,
    settings_on,
    system_gpus,
    system_kind,
    system_modules,
    unset_api_keys,
)
from gendermt.workflow.translation_code import translation_fingerprint
from gendermt.benchmarks import registry
from gendermt.benchmarks.registry import node_resources
from gendermt.translation.cache import check_file as check_cache_file, configured_dir
from gendermt.config.checks import check_config, check_schema
from gendermt.config.errors import GenderMTError
from gendermt.workflow.placement import gpu_resources
from gendermt.workflow.protection import protected_reruns, rerun_allowed, stop_message
from gendermt.workflow.fingerprints import code_fingerprint
from gendermt.config.run_record import check_config_files, startup_line
from gendermt.config.run_record import summary as run_summary_of
from gendermt.config.run import write_report_note
from gendermt.scoring.metrics import NEURAL_METRICS
from gendermt.scoring.normalization import normalizer_module
from gendermt.translation.source_translations import shares_source_translation
from gendermt.data.sources import Hasher, check_sources, identity
from gendermt.data.datasets import read_by as datasets_read_by
from gendermt.data.datasets import resolve_config as resolve_datasets
from gendermt.config.system_files import check_system_files
from gendermt.workflow.dag_guard import check_planned_inputs
from gendermt.report.labels import labels_for
from gendermt.workflow.scheduler_timers import one_pending_reevaluation


# Config files named on the command line without the default must name their run: the
# default's benchmarks are never dropped silently (checked before the schema fills `run`).
try:
    check_config_files(workflow.overwrite_configfiles, config, workflow.basedir)
except GenderMTError as _exc:
    raise WorkflowError(str(_exc))


# The schema (the base schema with every benchmark's fragment, gendermt.benchmarks.registry),
# checked once, with a message naming the key, filling in the schema's defaults as
# snakemake.utils.validate would.
SCHEMA = registry.config_schema(Path(workflow.basedir) / "workflow/schemas/config.schema.yaml")
try:
    check_schema(config, SCHEMA, fill_defaults=True, memo=startup_cache)
except GenderMTError as _exc:
    raise WorkflowError(f"config: {_exc}")

# Results of different configs live side by side: results/<run>/ (logs/<run>/). Not per
# run: the request cache (cache.dir, results/cache by default), which is keyed by system
# identity and request, so that an identical request is never sent twice across runs.
RUN = config["run"]
RESULTS = str(Path("results") / RUN)
LOGS = str(Path("logs") / RUN)

# sha256 of data sources, memoised by (path, size, mtime) in .snakemake/gendermt/.
SOURCE_HASHER = Hasher()

# Public data sets named by `dataset:<name>/<file>`: fetched into the data cache (or taken
# from a local copy) and every file's hash checked against its manifest, then the references
# replaced by their cached paths; a mismatch stops here, before anything runs.
try:
    DATASETS = resolve_datasets(config, SOURCE_HASHER)
except GenderMTError as _exc:
    raise WorkflowError(str(_exc))
if workflow.is_main_process:
    for _d in DATASETS:
        print(f"gendermt: data set {_d['dataset']} ({_d['source']}@{_d['commit'][:12]}): "
              f"{len(_d['files'])} files verified in {_d['folder']} (already there "
              f"{_d['obtained']['cached']}, from a local copy {_d['obtained']['local']}, "
              f"downloaded {_d['obtained']['downloaded']})", file=sys.stderr)

# Every configured data file or folder must exist before anything is planned; a damaged
# request cache stops here, not in a job (or in every later run, paying again).
try:
    check_cache_file(configured_dir(config))
    check_sources(config)
except GenderMTError as _exc:
    raise WorkflowError(str(_exc))


def data_source_identity(paths):
    """params of a data stage: path, size and sha256 of each file it reads (a changed
    source reruns the stage and everything downstream, whatever its mtime)."""
    found = identity(list(paths), SOURCE_HASHER)
    SOURCE_HASHER.save()
    return found


def datasets_of(paths):
    """params of a data stage: the declared public data sets its files come from (source,
    commit, licence, each file's sha256), which it records in its data.json; [] for none."""
    return datasets_read_by(list(paths), DATASETS)


def provenanced(paths):
    """A data stage's inputs whose path, size and sha256 are its params (data_source_identity):
    their content decides, not their mtime (ancient), so that touching a file (or copying
    it without its mtime) reruns nothing, while changing its bytes reruns the stage and
    everything downstream. Snakemake checksums only inputs up to 1 MB; its mtime trigger
    would otherwise rerun every stage, translations included, for a touched big file."""
    return ancient(paths)


wildcard_constraints:
    benchmark="[A-Za-z0-9_-]+",
    system="[A-Za-z0-9][A-Za-z0-9_.+-]*",
    prompt="[A-Za-z0-9][A-Za-z0-9_-]*",
    # a benchmark's own rules name the generic rules' {prompt} by what it is there: a target
    # language (WinoMT, GAMBIT: prompts named by it) or a run (Neo-GATE's format × shots ×
    # paradigm); the same path segment, the same pattern
    lang="[A-Za-z0-9][A-Za-z0-9_-]*",
    run="[A-Za-z0-9][A-Za-z0-9_-]*",


# The config's benchmark blocks by name (the Snakefile includes the rule files of these only).
BENCHMARK_CONFIG = config["benchmarks"]
SYSTEMS = config["systems"]


def benchmark_spec(name):
    """A configured benchmark's block, by the benchmark's name (its rule file keeps it in a
    global named after its benchmark, `WINO_X = benchmark_spec("wino-x")`, or calls this in
    its lambdas). Never in a shared name such as `SPEC`: every rule file runs in one
    namespace, and the next file would rebind it before any lambda of this one ran."""
    try:
        return BENCHMARK_CONFIG[name]
    except KeyError:
        raise WorkflowError(f"benchmarks.{name}: not configured, its rule file is not "
                            "included (Snakefile: registry.configured)") from None
# Every value the schema cannot check (settings, templates, each benchmark's systems, prompts
# and decoding overrides, sacrebleu options, each benchmark's own checks), checked before any
# job runs (gendermt.config.checks).
try:
    TEMPLATES = check_config(config)
except GenderMTError as _exc:
    raise WorkflowError(f"config: {_exc}")

# --- lookups by wildcards -------------------------------------------------------------
def template_of(wildcards):
    return TEMPLATES[wildcards.benchmark][wildcards.prompt]


def template_for(benchmark, wildcard="prompt"):
    """A benchmark's template of the job's prompt (for rules without {benchmark}); its rules
    may name the prompt's wildcard by what it is (GAMBIT's {lang})."""
    return lambda wildcards: TEMPLATES[benchmark][getattr(wildcards, wildcard)]


def configured(key, lookup, *args):
    """``lookup(*args)`` (e.g. a benchmark's data files); its error stops the workflow,
    naming the config key."""
    try:
        return lookup(*args)
    except GenderMTError as exc:
        raise WorkflowError(f"{key}: {exc}")


def system_output_settings(wildcards):
    """The settings that change a system's outputs on this benchmark (its `systems:` entry
    with the benchmark's `decoding:` overrides; not concurrency, timeouts, threads, ...)."""
    return output_settings(settings_on(config, wildcards.benchmark, wildcards.system))


def translation_code(wildcards):
    """The declared versions of the translation runner and this system's backend, and the
    code of what the backend loads by name (a stored format's reader)."""
    return translation_fingerprint(SYSTEMS[wildcards.system])


def backend_modules_of(*systems):
    """The backend modules of the configured systems a stage builds (an LLM judge, an
    annotator): its fingerprint covers those backends and no other."""
    return sorted({m for s in systems for m in system_modules(SYSTEMS[s])})


def translation_threads(wildcards):
    """CPU threads of a translation job: the system's `threads` (default 1: two one-thread
    model jobs on 2 cores outrun two two-thread jobs that fight over them)."""
    return int(SYSTEMS[wildcards.system].get("threads", 1))


def model_files_of(wildcards):
    """A GGUF file a system's model names (an input: a changed file reruns its jobs)."""
    from gendermt.translation.backends.gguf import is_gguf, locate

    model = str(SYSTEMS[wildcards.system].get("model", ""))
    if SYSTEMS[wildcards.system].get("backend") != "hf-causal" or not is_gguf(model):
        return []
    try:
        return [str(locate(model))]
    except GenderMTError as exc:
        raise WorkflowError(f"systems.{wildcards.system}: {exc}")


# Each benchmark's runs as records ({system, prompt, ...}; a run's files are
# <stage>/{system}/{prompt}.*): each system on each prompt, or on the prompts its
# `system_prompts` gives it, unless its rule file sets BENCHMARK_RUNS["<name>"] (Neo-GATE
# sets systems x runs and paradigm systems, GAMBIT model x language). The one family of run
# helpers: run_records, and run_paths for a rule's inputs and its `params: runs=`.
BENCHMARK_RUNS: dict[str, list[dict]] = {}


def run_records(benchmark):
    if benchmark in BENCHMARK_RUNS:
        return BENCHMARK_RUNS[benchmark]
    spec = BENCHMARK_CONFIG[benchmark]
    only = spec.get("system_prompts", {})
    return [{"system": s, "prompt": p} for s in spec["systems"] for p in spec["prompts"]
            if p in only.get(s, spec["prompts"])]


def run_paths(pattern, benchmark, **patterns):
    """{system, prompt, path} of every run of a benchmark (run_records), `path` being `pattern`
    ({benchmark}, {system}, {prompt}) filled in, once per path, and a key per further pattern
    (`summary=...`: the run's other files): what an aggregate stage receives (`params:
    runs=`), so that no stage reads a run's system and prompt back out of its path."""
    found = {}
    for r in run_records(benchmark):
        fill = dict(benchmark=benchmark, system=r["system"], prompt=r["prompt"])
        path = pattern.format(**fill)
        found.setdefault(path, {"system": r["system"], "prompt": r["prompt"], "path": path,
                                **{k: p.format(**fill) for k, p in patterns.items()}})
    return list(found.values())


def translation_records_of(wildcards):
    """{system, prompt, path} of every translation file of a benchmark."""
    return run_paths(f"{RESULTS}/{{benchmark}}/translations/{{system}}/{{prompt}}.jsonl",
                     wildcards.benchmark)


def translation_files_of(wildcards):
    """Every translation file of a benchmark, whatever its runs are made of."""
    return [r["path"] for r in translation_records_of(wildcards)]


def output_check_records_of(wildcards):
    """{system, prompt, path, inputs} of every translation file of a benchmark, with the
    requests it answered (output_checks.smk)."""
    return [
        {**r, "inputs": f"{RESULTS}/{wildcards.benchmark}/inputs/{r['prompt']}.jsonl"}
        for r in translation_records_of(wildcards)
    ]


def output_check_inputs_of(wildcards):
    """The request files of a benchmark's translation files (once each)."""
    return sorted({r["inputs"] for r in output_check_records_of(wildcards)})


def system_kinds(systems):
    """model, baseline or oracle per system (means over systems count models only)."""
    return {s: system_kind(SYSTEMS[s]) for s in systems}


def output_checks_table(folder):
    """A benchmark's per-run counts of echoes and wrong-language outputs (output_checks.smk),
    which its figures read to draw a run below the clean-share floor as low quality."""
    return f"{RESULTS}/{folder}/tables/output_checks.csv"


def optional_intervals(folder):
    """Input function of a benchmark's figures rule: its ``tables/intervals.csv`` where the
    workflow has a rule that writes it (registered in INTERVAL_TABLES by the benchmark's
    `*_intervals` rule), else nothing, and the figure draws without error bars. A function,
    so that the registry is read once every rule file is parsed."""

    def intervals(wildcards):
        tables = globals().get("INTERVAL_TABLES", {}).get(folder, [])
        return [t for t in tables if os.path.basename(t) == "intervals.csv"]

    return intervals


def stored_outputs_of(wildcards):
    """A `stored` system's file for this job (an input: replacing it reruns the job)."""
    settings = SYSTEMS[wildcards.system]
    if settings.get("backend") != "stored":
        return []
    from gendermt.translation.backends.stored import resolve_path

    return [resolve_path(settings["path"], {"benchmark": wildcards.benchmark,
                                            "prompt": wildcards.prompt})]


def translation_gpus(wildcards):
    # a prompt's job of a system that shares one translation of the distinct sources only
    # reads that file: no GPU (the sources job has it)
    if shares_source_translation_of(wildcards.benchmark, wildcards.system):
        return 0
    return system_gpus(SYSTEMS[wildcards.system])


# --- one translation of the distinct sources per system and benchmark (NMT, Apertium:
# systems that read only the source; gendermt/translation/source_translations.py) -----------------------
_PROMPTS_OF = {}  # benchmark → (its runs' identity, system → prompts): input functions ask per job


def system_prompts(benchmark, system):
    """The prompts (Neo-GATE: runs; GAMBIT: languages) a system translates in a benchmark."""
    runs = BENCHMARK_RUNS.get(benchmark)
    token = None if runs is None else (id(runs), len(runs))
    known = _PROMPTS_OF.get(benchmark)
    if known is None or known[0] != token:
        index = {}
        for r in run_records(benchmark):
            index.setdefault(r["system"], {}).setdefault(r["prompt"], None)
        known = _PROMPTS_OF[benchmark] = (token, {s: list(p) for s, p in index.items()})
    return list(known[1].get(system, ()))


def shares_source_translation_of(benchmark, system):
    return shares_source_translation(SYSTEMS[system], len(system_prompts(benchmark, system)))


def source_translation_of(wildcards):
    """The system's translation of the distinct sources, for a prompt's job of a system that
    shares one; ancient: re-made when a prompt is added, it reruns no existing prompt's job."""
    if not shares_source_translation_of(wildcards.benchmark, wildcards.system):
        return []
    return [ancient(f"{RESULTS}/{wildcards.benchmark}/sources/{wildcards.system}.jsonl")]


def source_inputs_of(wildcards):
    return expand(
        f"{RESULTS}/{{benchmark}}/inputs/{{prompt}}.jsonl",
        benchmark=wildcards.benchmark,
        prompt=system_prompts(wildcards.benchmark, wildcards.system),
    )


def source_gpus(wildcards):
    return system_gpus(SYSTEMS[wildcards.system])


def postprocess_of(wildcards):
    return BENCHMARK_CONFIG[wildcards.benchmark].get("postprocess", [])


def sacrebleu_metrics_of(wildcards):
    return [
        m
        for m in BENCHMARK_CONFIG[wildcards.benchmark].get("metrics", [])
        if m not in NEURAL_METRICS
    ]


def metric_options(wildcards):
    scoring = config.get("scoring", {})
    return {m: scoring.get(m) or {} for m in sacrebleu_metrics_of(wildcards)}


def hypothesis_normalization_of(wildcards):
    """The benchmark's `normalize_hypotheses` (a scoring option; None: none)."""
    return BENCHMARK_CONFIG[wildcards.benchmark].get("normalize_hypotheses")


def scoring_code(module):
    """A scoring job's code param: `module` and the module of the benchmark's normaliser,
    which the job loads by name (a contract's `normalizers`), and no other."""
    def code(wildcards):
        own = normalizer_module(hypothesis_normalization_of(wildcards))
        return code_fingerprint(module, *([own] if own else []))
    return code


def comet_settings_of(wildcards):
    """scoring.comet, plus the benchmark's `normalize_hypotheses` when it sets one (only
    then: existing COMET results, protected GPU outputs, are not rerun for a null)."""
    name = hypothesis_normalization_of(wildcards)
    return {**comet_settings(), **({"normalize_hypotheses": name} if name else {})}


def corpus_groups_of(wildcards):
    return BENCHMARK_CONFIG[wildcards.benchmark].get("corpus_groups", [])


def bleu_tokenizers():
    """scoring.tokenize: BLEU's tokenizer per target language (and `default`)."""
    return config.get("scoring", {}).get("tokenize", {})


def statistics_settings():
    """statistics: bootstrap resamples, seed and confidence level of the tables."""
    return config.get("statistics", {})


def comet_settings():
    return config.get("scoring", {}).get("comet", {})


def comet_gpus(wildcards):
    return int(comet_settings().get("gpus", 1))


def bertscore_settings():
    # (configured when a benchmark lists bertscore: checked at start-up)
    return config.get("scoring", {}).get("bertscore") or {}


def bertscore_gpus(wildcards):
    return int(bertscore_settings().get("gpus", 1))


# --- targets --------------------------------------------------------------------------
def score_records(benchmark):
    """Every score file of a benchmark as a record: each run's sacrebleu scores ({system,
    prompt, path}), and COMET's and BERTScore's files of all runs when they are asked for
    ({path}: their rows name system and prompt)."""
    spec = BENCHMARK_CONFIG[benchmark]
    records = run_paths(f"{RESULTS}/{{benchmark}}/scores/{{system}}/{{prompt}}.parquet",
                        benchmark)
    if "comet" in spec.get("metrics", []):
        # one file for all runs: COMET scores each distinct triple once (scoring/comet.py)
        records.append({"path": f"{RESULTS}/{benchmark}/scores/comet.parquet"})
    if "bertscore" in spec.get("metrics", []):
        records.append({"path": f"{RESULTS}/{benchmark}/scores/bertscore.parquet"})
    return records


# Each benchmark's rule file adds the tables and figures it makes.
TARGETS: list[str] = []

# Files a benchmark's scorecard reader reads beyond its tables, by keyword argument of the
# reader (its rule file sets them; e.g. FairTranslate's per-item scores for its gaps' CIs).
SCORECARD_INPUTS: dict[str, dict[str, list[str]]] = {}

# Each benchmark's intervals and paired tests of its headline figures (its `*_intervals`
# rule, gendermt.analysis.intervals): benchmark folder → [intervals.csv, pairs.csv]; the
# scorecard attaches them to its cells.
INTERVAL_TABLES: dict[str, list[str]] = {}


def interval_outputs(folder, category):
    """The outputs of a benchmark's `*_intervals` rule (tables/intervals.csv and pairs.csv,
    each in the report, with their Markdown), registered in INTERVAL_TABLES."""
    base = f"{RESULTS}/{folder}/tables"
    INTERVAL_TABLES[folder] = [f"{base}/intervals.csv", f"{base}/pairs.csv"]
    TARGETS.extend(INTERVAL_TABLES[folder])
    return {
        "intervals": table_report(
            f"{base}/intervals.csv",
            caption=os.path.join(workflow.basedir, "workflow", "report", "intervals.rst"),
            category=category,
            subcategory="Tables",
        ),
        "intervals_md": f"{base}/intervals.md",
        "pairs": table_report(
            f"{base}/pairs.csv",
            caption=os.path.join(workflow.basedir, "workflow", "report", "pairs.rst"),
            category=category,
            subcategory="Tables",
        ),
        "pairs_md": f"{base}/pairs.md",
    }

# Tables of the report: csv path → its report entry; rule report_tables renders each as an
# HTML page the report shows inline (Snakemake shows CSVs only as download links).
REPORT_TABLES: dict[str, dict] = {}


def table_report(path, caption, category, subcategory, labels=None):
    """A table (CSV) for the report: registered for its HTML page; returns the plain path."""
    REPORT_TABLES[path] = {
        # as from workflow/rules/report.smk, whose rules register the page: a caption is
        # written relative to the rule file that names it (a benchmark's, in its folder)
        "caption": os.path.relpath(
            os.path.join(workflow.current_basedir.get_path_or_uri(secret_free=True), caption),
            os.path.join(workflow.basedir, "workflow", "rules")),
        "category": category,
        "subcategory": subcategory,
        "labels": labels or labels_for(path, category),
    }
    return path


def figure_report(path, caption, category, subcategory, labels=None):
    """A figure for the report, labelled (benchmark, figure, paper figure)."""
    return report(
        path,
        caption=caption,
        category=category,
        subcategory=subcategory,
        labels=labels or labels_for(path, category),
    )


def all_targets():
    """TARGETS, once every file a planned run's systems need (stored outputs per benchmark
    and prompt, GGUF files, local model folders) is found: checked here, after every rule
    file has set its runs, before anything is planned (gendermt.config.system_files)."""
    try:
        check_system_files(config, {b: run_records(b) for b in BENCHMARK_CONFIG})
    except GenderMTError as exc:
        raise WorkflowError(str(exc))
    return TARGETS


# Before any job starts: no job reads a results/<run>/ file that no planned job makes (an old
# run's output taken as a source file; gendermt.workflow.dag_guard).
# Snakemake keeps one onstart handler: every check that needs the planned jobs is here.
# Protected outputs stop the run for every user, root too (Snakemake's own check is the file's
# writability, which root always has): gendermt.workflow.protection, before any job runs.
# A system about to translate whose API key is not in the environment stops here too.
# Snakemake's scheduler then keeps one re-evaluation timer pending, not one per finished job
# (gendermt.workflow.scheduler_timers: a seventh of the default's CPU).
onstart:
    one_pending_reevaluation(workflow.scheduler)
    try:
        check_planned_inputs(workflow.dag, RESULTS)
    except GenderMTError as exc:
        raise WorkflowError(str(exc))
    _jobs = list(workflow.dag.needrun_jobs())
    if not workflow.touch and not rerun_allowed(config):
        _locked = protected_reruns(_jobs)
        if _locked:
            raise WorkflowError(stop_message(_locked))
    _unset = unset_api_keys(SYSTEMS, [j.wildcards_dict["system"] for j in _jobs
                                      if j.rule.name in ("translate", "translate_sources")])
    if _unset:
        raise WorkflowError("\n".join(_unset))
