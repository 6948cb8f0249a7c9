# Config loading, start-up checks and the names every rule file uses (lookups bound to this
# config, their logic in gendermt.workflow.lookups, .runs, .targets and .startup), and the few
# things that must live in Snakemake's namespace (wildcard constraints, onstart).
import os
import sys
from pathlib import Path

# gendermt is imported from this checkout, so that the package, the workflow that calls it
# and the stage versions below are always the same version: first on this process's path,
# and first on the jobs' (Snakemake only appends its own path to a job's sys.path, after
# site-packages, where another installed gendermt would win; in a conda env there is none).
SRC = str(Path(workflow.basedir) / "src")
sys.path.insert(0, SRC)
os.environ.update(PYTHONPATH=os.pathsep.join(filter(None, [SRC, os.environ.get("PYTHONPATH")])))

# Benchmarks kept outside the project (`benchmarks.<name>.file`): registered before anything
# reads the registry (the schema names every benchmark), here and in the jobs (through the
# environment, as PYTHONPATH above); gendermt.config.benchmark_files.
from gendermt.config.benchmark_files import include as include_benchmark_files
from gendermt.core.errors import GenderMTError
from snakemake.exceptions import WorkflowError

try:
    include_benchmark_files(config)
except GenderMTError as exc:
    raise WorkflowError(f"config: {exc}") from None

# Start-up work memoised by file content (validated reference files, parsed Snakefiles), kept in
# .snakemake/gendermt/startup.json.
from gendermt.workflow import startup_cache

startup_cache.enable(Path(".snakemake/gendermt/startup.json").resolve())

# Snakemake internals replaced (gendermt.workflow.snakemake_overrides): the parse of the rule
# files included after this one memoised by their content (about 0.06 s of CPU on every call;
# a Snakemake without that parser is left as it ships). A moved or touched script reruns
# nothing through the workflow profile's rerun-triggers (profiles/default), not an override.
from gendermt.workflow import snakemake_overrides

snakemake_overrides.install_parse_cache(sys.modules[type(workflow).__module__])

# what the rule files call besides the lookups below
from gendermt.translation.backends import output_settings, system_gpus, system_modules
from gendermt.config.systems import settings_on
from gendermt.core import registry
from gendermt.core.registry import node_resources
from gendermt.workflow.placement import gpu_resources
from gendermt.workflow.job_size import sized_resources
from gendermt.workflow.stage_versions import stage_code
from gendermt.workflow.run_record import startup_line
from gendermt.workflow.run_record import summary as run_summary_of
from gendermt.config.run import write_report_note
from gendermt.data.sources import Hasher
from gendermt.workflow import startup
from gendermt.workflow.lookups import Lookups, configured
from gendermt.workflow.made_with import MadeWith, recorded_params
from gendermt.workflow.runs import Runs
from gendermt.workflow.targets import Targets

# The config files named, then the config against the schema (filling its defaults): before
# anything reads a key.
startup.check_config_and_schema(config, workflow.overwrite_configfiles, workflow.basedir,
                                startup_cache)

# Results of different configs live side by side: results/<run>/ (logs/<run>/). Not per
# run: the request cache (cache.dir, results/cache by default), which is keyed by system
# identity and request, so that an identical request is never sent twice across runs.
RUN = config["run"]
RESULTS = str(Path("results") / RUN)
LOGS = str(Path("logs") / RUN)

# sha256 of data sources, memoised by (path, size, mtime) in .snakemake/gendermt/.
SOURCE_HASHER = Hasher()
# the public data sets, verified; every data file and the request cache checked
DATASETS = startup.checked_data(config, SOURCE_HASHER, workflow.is_main_process)


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
# every value the schema cannot check, checked before any job runs; the prompts' templates
TEMPLATES = startup.checked_templates(config)

# --- data stages: params of what their sources hold (gendermt.workflow.startup) ----------
_DATA = startup.DataStages(SOURCE_HASHER, DATASETS)
data_source_identity, datasets_of = _DATA.data_source_identity, _DATA.datasets_of


def provenanced(paths: str | list[str]) -> object:
    """A data stage's inputs whose path, size and sha256 are its params (data_source_identity):
    their content decides, not their mtime (ancient), so that touching a file (or copying
    it without its mtime) reruns nothing, while changing its bytes reruns the stage and
    everything downstream. Snakemake checksums only inputs up to 1 MB; its mtime trigger
    would otherwise rerun every stage, translations included, for a touched big file."""
    return ancient(paths)


def env_file(name: str) -> str:
    """A conda env file of the workflow's envs/, by its name: a benchmark's rule file names its
    env by this, not by a path relative to itself (its package may be installed apart from the
    workflow). Snakemake records an env by its content, so the path changes nothing."""
    return os.path.join(workflow.basedir, "envs", name)


# --- lookups by wildcards (gendermt.workflow.lookups) -----------------------------------
_LOOKUPS = Lookups(config, TEMPLATES)
benchmark_spec = _LOOKUPS.benchmark_spec
template_of, template_for = _LOOKUPS.template_of, _LOOKUPS.template_for
system_output_settings = _LOOKUPS.system_output_settings
translation_code, backend_modules_of = _LOOKUPS.translation_code, _LOOKUPS.backend_modules_of
translation_threads, model_files_of = _LOOKUPS.translation_threads, _LOOKUPS.model_files_of
system_kinds, stored_outputs_of = _LOOKUPS.system_kinds, _LOOKUPS.stored_outputs_of
postprocess_of, corpus_groups_of = _LOOKUPS.postprocess_of, _LOOKUPS.corpus_groups_of
sacrebleu_metrics_of, metric_options = _LOOKUPS.sacrebleu_metrics_of, _LOOKUPS.metric_options
hypothesis_normalization_of = _LOOKUPS.hypothesis_normalization_of
scoring_code, bleu_tokenizers = _LOOKUPS.scoring_code, _LOOKUPS.bleu_tokenizers
statistics_settings = _LOOKUPS.statistics_settings
comet_settings, comet_settings_of = _LOOKUPS.comet_settings, _LOOKUPS.comet_settings_of
comet_gpus = _LOOKUPS.comet_gpus
bertscore_settings, bertscore_gpus = _LOOKUPS.bertscore_settings, _LOOKUPS.bertscore_gpus

# --- each benchmark's runs and their files (gendermt.workflow.runs) -----------------------
_RUNS = Runs(BENCHMARK_CONFIG, SYSTEMS, RESULTS)
# a benchmark's rule file sets its runs here when they are not each system on each prompt
BENCHMARK_RUNS = _RUNS.runs
run_records, run_paths, score_records = _RUNS.run_records, _RUNS.run_paths, _RUNS.score_records
translation_records_of = _RUNS.translation_records_of
translation_files_of = _RUNS.translation_files_of
output_check_records_of = _RUNS.output_check_records_of
output_check_inputs_of = _RUNS.output_check_inputs_of
system_prompts = _RUNS.system_prompts
shares_source_translation_of = _RUNS.shares_source_translation_of
source_translation_of, source_inputs_of = _RUNS.source_translation_of, _RUNS.source_inputs_of
source_gpus, translation_gpus = _RUNS.source_gpus, _RUNS.translation_gpus
source_size, translation_size = _RUNS.source_size, _RUNS.translation_size
paid_work_of, paid_work_inputs = _RUNS.paid_work_of, _RUNS.paid_work_inputs
paid_work_jobs = _RUNS.paid_work_jobs
# a translation job's links to paid_work.json and the shared sources are ancient only while
# its outputs were made with its system's current settings and code (a changed setting
# reruns them, or the protection stop names them; gendermt.workflow.made_with)
_RUNS.made_with_current = MadeWith(RESULTS, recorded_params(workflow), translation_code,
                                   system_output_settings).made_with_current

# --- targets and the report's tables and figures (gendermt.workflow.targets) ---------------
# (str(): the current rule file's folder; get_path_or_uri's arguments differ across Snakemake 9)
_TARGETS = Targets(RESULTS, lambda: str(workflow.current_basedir),
                   os.path.join(workflow.basedir, "workflow", "rules"))
# Each rule file declares what it makes under its own name (a benchmark's, or the shared
# file's), never into another's list; the files that read a kind of declaration (scorecard.smk,
# report.smk, rule all) come after every rule file that declares it, and a late declaration
# stops the run naming both.
# the tables and figures each file makes, declare_targets("<name>", [paths])
declare_targets, declared_targets = _TARGETS.declare_targets, _TARGETS.declared_targets
# a benchmark's explorer page: its module, label and the inputs of its `read`
declare_explorer, explorers = _TARGETS.declare_explorer, _TARGETS.explorers
# what a benchmark's scorecard reader reads beyond its tables, by keyword
declare_scorecard_inputs = _TARGETS.declare_scorecard_inputs
scorecard_inputs = _TARGETS.scorecard_inputs
# each benchmark's intervals and paired tests of its headline figures (`*_intervals` rule)
interval_tables = _TARGETS.interval_tables
# csv path → its report entry (table_report); rule report_tables renders each as an HTML page
report_tables = _TARGETS.report_tables
table_report, figure_report = _TARGETS.table_report, _TARGETS.figure_report
interval_outputs, optional_intervals = _TARGETS.interval_outputs, _TARGETS.optional_intervals
output_checks_table = _TARGETS.output_checks_table


def all_targets() -> list[str]:
    """Every declared target, once every file a planned run's systems need is found: checked
    here, after every rule file has set its runs, before anything is planned. The characters
    and cost of the commercial MT services' runs are stated here too (`snakemake -n`
    included)."""
    startup.state_paid_work(config, RESULTS, run_records, workflow.is_main_process)
    return _TARGETS.all_targets(config, {b: run_records(b) for b in BENCHMARK_CONFIG})


# Before any job starts: the checks that need the planned jobs (inputs no planned job makes,
# protected outputs, unset API keys; gendermt.workflow.startup.before_jobs). Snakemake keeps
# one onstart handler: every such check is here.
onstart:
    startup.before_jobs(workflow, config, RESULTS, SYSTEMS)
