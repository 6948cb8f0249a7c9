# Config validation and the helper functions the rules use (no logic beyond lookups).
import os
import sys
from pathlib import Path

from snakemake.exceptions import WorkflowError
from snakemake.utils import validate

# gendermt is imported from this checkout, so that the package, the workflow that calls it
# and the code fingerprints below are always the same version: first on this process's path,
# and first on the jobs' (Snakemake only appends its own path to a job's sys.path, after
# site-packages, where another installed gendermt would win; in a conda env there is none).
SRC = str(Path(workflow.basedir) / "src")
sys.path.insert(0, SRC)
os.environ.update(PYTHONPATH=os.pathsep.join(filter(None, [SRC, os.environ.get("PYTHONPATH")])))

from gendermt.backends import (
    backend_module,
    check_system,
    output_settings,
    settings_on,
    system_gpus,
    system_kind,
)
from gendermt.benchmarks.gambit.lexicon import cues_path_for
from gendermt.config_checks import check_config, check_schema
from gendermt.errors import GenderMTError
from gendermt.provenance import code_fingerprint
from gendermt.runinfo import check_config_files, startup_line
from gendermt.runinfo import summary as run_summary_of
from gendermt.scoring.metrics import NEURAL_METRICS
from gendermt.source_translations import shares_sources
from gendermt.sources import Hasher, check_sources, identity
from gendermt.report_labels import labels_for


# Config files named on the command line without the default must name their run: the
# default's benchmarks are never dropped silently (checked before the schema fills `run`).
try:
    check_config_files(workflow.overwrite_configfiles, config, workflow.basedir)
except GenderMTError as _exc:
    raise WorkflowError(str(_exc))


# The schema, with a message naming the key, then Snakemake's validation (defaults).
try:
    check_schema(config, Path(workflow.basedir) / "workflow/schemas/config.schema.yaml")
except GenderMTError as _exc:
    raise WorkflowError(f"config: {_exc}")
validate(config, schema="../schemas/config.schema.yaml")

# Results of different configs live side by side: results/<run>/ (logs/<run>/). Not per
# run: the request cache (cache.dir, results/cache by default), which is keyed by system
# identity and request, so that an identical request is never sent twice across runs.
RUN = config["run"]
RESULTS = str(Path("results") / RUN)
LOGS = str(Path("logs") / RUN)

# Every configured data file or folder must exist before anything is planned.
try:
    check_sources(config)
except GenderMTError as _exc:
    raise WorkflowError(str(_exc))

# sha256 of data sources, memoised by (path, size, mtime) in .snakemake/gendermt/.
SOURCE_HASHER = Hasher()


def source_identity(paths):
    """params of a data stage: path, size and sha256 of each file it reads (a changed
    source reruns the stage and everything downstream, whatever its mtime)."""
    found = identity(list(paths), SOURCE_HASHER)
    SOURCE_HASHER.save()
    return found


wildcard_constraints:
    benchmark="[A-Za-z0-9_-]+",
    system="[A-Za-z0-9][A-Za-z0-9_.+-]*",
    prompt="[A-Za-z0-9][A-Za-z0-9_-]*",


BENCHMARKS = config["benchmarks"]
SYSTEMS = config["systems"]
# Every value the schema cannot check (settings, templates, sacrebleu options, reference
# files), checked before any job runs (gendermt.config_checks).
try:
    TEMPLATES = check_config(config)
except GenderMTError as _exc:
    raise WorkflowError(f"config: {_exc}")

for _name, _spec in BENCHMARKS.items():
    # An entry for a configured system the benchmark does not run is left unused: an overlay
    # that replaces the benchmark's `systems:` list cannot delete the default's mapping key.
    for _system, _prompts in _spec.get("system_prompts", {}).items():
        if _system not in SYSTEMS or (
            _system in _spec["systems"] and not set(_prompts) <= set(_spec["prompts"])
        ):
            raise WorkflowError(
                f"benchmarks.{_name}.system_prompts.{_system}: {_prompts} must name a "
                f"configured system and some of the benchmark's prompts {_spec['prompts']}"
            )
    for _system, _overrides in _spec.get("decoding", {}).items():
        if _system not in SYSTEMS:
            raise WorkflowError(f"benchmarks.{_name}.decoding names {_system!r}, which is "
                                f"not defined under `systems:`")
        try:
            check_system({**SYSTEMS[_system], **_overrides})
        except GenderMTError as _exc:
            raise WorkflowError(f"benchmarks.{_name}.decoding.{_system}: {_exc}")


# --- lookups by wildcards -------------------------------------------------------------
def template_of(wildcards):
    return TEMPLATES[wildcards.benchmark][wildcards.prompt]


def system_output_settings(wildcards):
    """The settings that change a system's outputs on this benchmark (its `systems:` entry
    with the benchmark's `decoding:` overrides; not concurrency, timeouts, threads, ...)."""
    return output_settings(settings_on(config, wildcards.benchmark, wildcards.system))


def translation_code(wildcards):
    """The translation runner and this system's backend module (nothing else's)."""
    own = backend_module(SYSTEMS[wildcards.system])
    return code_fingerprint("gendermt.translate", *([own] if own else []))


def backend_modules_of(*systems):
    """The backend modules of the configured systems a stage builds (an LLM judge, an
    annotator): its fingerprint covers those backends and no other."""
    return sorted({backend_module(SYSTEMS[s]) for s in systems} - {None})


def gambit_detector_code(module, wildcards):
    """A GAMBIT detector stage's fingerprint: `module`, gendermt.translate (the script reads
    the request cache folder from it) and the backend of the detector's judge system (a
    lexicon detector builds none)."""
    detector = BENCHMARKS["gambit"]["detectors"][wildcards.detector]
    systems = [detector["system"]] if "system" in detector else []
    return code_fingerprint(module, "gendermt.translate", *backend_modules_of(*systems))


def gambit_detect_code(wildcards):
    return gambit_detector_code("gendermt.benchmarks.gambit.evaluate", wildcards)


def gambit_validate_code(wildcards):
    return gambit_detector_code("gendermt.benchmarks.gambit.validation", wildcards)


def translation_threads(wildcards):
    """CPU threads of a translation job: the system's `threads` (default 1: two one-thread
    model jobs on 2 cores outrun two two-thread jobs that fight over them)."""
    return int(SYSTEMS[wildcards.system].get("threads", 1))


def model_files_of(wildcards):
    """A GGUF file a system's model names (an input: a changed file reruns its jobs)."""
    from gendermt.backends.gguf import is_gguf, locate

    model = str(SYSTEMS[wildcards.system].get("model", ""))
    if SYSTEMS[wildcards.system].get("backend") != "hf-causal" or not is_gguf(model):
        return []
    try:
        return [str(locate(model))]
    except GenderMTError as exc:
        raise WorkflowError(f"systems.{wildcards.system}: {exc}")


def translation_records_of(wildcards):
    """{system, prompt, path} of every translation file of a benchmark, whatever its runs are
    made of (Neo-GATE: systems × runs and paradigm systems; GAMBIT: model × language, the
    language as prompt; the rest: runs_of)."""
    benchmark = wildcards.benchmark
    pattern = f"{RESULTS}/{benchmark}/translations/{{system}}/{{prompt}}.jsonl"
    if benchmark == "neogate":
        pairs = [
            (system, name)
            for name, run in NEOGATE_RUNS.items()
            for system in NEOGATE.get("systems", [])
            + NEOGATE_PARADIGM_SYSTEMS.get(run["paradigm"], [])
        ]
    elif benchmark == "gambit":
        pairs = list(dict.fromkeys((r["system"], r["lang"]) for r in GAMBIT_RUNS))
    else:
        pairs = runs_of(benchmark)
    return [{"system": s, "prompt": p, "path": pattern.format(system=s, prompt=p)}
            for s, p in pairs]


def translation_files_of(wildcards):
    """Every translation file of a benchmark (the paths of translation_records_of)."""
    return [r["path"] for r in translation_records_of(wildcards)]


def system_kinds(systems):
    """model, baseline or oracle per system (means over systems count models only)."""
    return {s: system_kind(SYSTEMS[s]) for s in systems}


def runs_of(benchmark):
    """(system, prompt) of every run of a benchmark: each system on each prompt, or on the
    prompts `system_prompts` gives it."""
    spec = BENCHMARKS[benchmark]
    only = spec.get("system_prompts", {})
    return [(s, p) for s in spec["systems"] for p in spec["prompts"]
            if p in only.get(s, spec["prompts"])]


def run_records(pattern, benchmark):
    """{system, prompt, path} of every run of a benchmark, `path` being `pattern` ({benchmark},
    {system}, {prompt}) filled in: what an aggregate stage receives (`params: runs=`), so that
    no stage reads a run's system and prompt back out of its path."""
    return [{"system": s, "prompt": p,
             "path": pattern.format(benchmark=benchmark, system=s, prompt=p)}
            for s, p in runs_of(benchmark)]


def run_files(pattern, benchmark):
    """`pattern` ({benchmark}, {system}, {prompt}) for every run of a benchmark."""
    return [r["path"] for r in run_records(pattern, benchmark)]


def stored_outputs_of(wildcards):
    """A `stored` system's file for this job (an input: replacing it reruns the job)."""
    settings = SYSTEMS[wildcards.system]
    if settings.get("backend") != "stored":
        return []
    from gendermt.backends.stored import resolve_path

    return [resolve_path(settings["path"], {"benchmark": wildcards.benchmark,
                                            "prompt": wildcards.prompt})]


def translation_gpus(wildcards):
    # a prompt's job of a system that shares one translation of the distinct sources only
    # reads that file: no GPU (the sources job has it)
    if sources_shared(wildcards.benchmark, wildcards.system):
        return 0
    return system_gpus(SYSTEMS[wildcards.system])


# --- one translation of the distinct sources per system and benchmark (NMT, Apertium:
# systems that read only the source; gendermt/source_translations.py) -----------------------
def system_prompts(benchmark, system):
    """The prompts (Neo-GATE: runs; GAMBIT: languages) a system translates in a benchmark."""
    if benchmark == "neogate":
        return [
            name
            for name, run in NEOGATE_RUNS.items()
            if system in NEOGATE.get("systems", []) + NEOGATE_PARADIGM_SYSTEMS.get(run["paradigm"], [])
        ]
    if benchmark == "gambit":
        return list(dict.fromkeys(r["lang"] for r in GAMBIT_RUNS if r["system"] == system))
    return [p for s, p in runs_of(benchmark) if s == system]


def sources_shared(benchmark, system):
    return shares_sources(SYSTEMS[system], len(system_prompts(benchmark, system)))


def shared_sources_of(wildcards):
    """The system's translation of the distinct sources, for a prompt's job of a system that
    shares one; ancient: re-made when a prompt is added, it reruns no existing prompt's job."""
    if not sources_shared(wildcards.benchmark, wildcards.system):
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


def source_partition(wildcards):
    return slurm_partition(source_gpus(wildcards))


def source_gpu_model(wildcards):
    return slurm_gpu_model(source_gpus(wildcards))


def postprocess_of(wildcards):
    return BENCHMARKS[wildcards.benchmark].get("postprocess", [])


def sacrebleu_metrics_of(wildcards):
    return [
        m
        for m in BENCHMARKS[wildcards.benchmark].get("metrics", [])
        if m not in NEURAL_METRICS
    ]


def metric_options(wildcards):
    scoring = config.get("scoring", {})
    return {m: scoring.get(m) or {} for m in sacrebleu_metrics_of(wildcards)}


def fairtranslate_clean_outlier(spec):
    """benchmarks.fairtranslate.clean_outlier with its defaults, checked against the config."""
    from gendermt.benchmarks.fairtranslate import outliers

    try:
        settings = outliers.settings_of(spec.get("clean_outlier"), spec["systems"])
    except GenderMTError as exc:
        raise WorkflowError(f"benchmarks.fairtranslate.{exc}")
    if settings["enabled"] and "comet" not in spec.get("metrics", []):
        raise WorkflowError(
            "benchmarks.fairtranslate.clean_outlier is enabled but `comet` is not among "
            "the metrics: the filter keeps rows by their COMET scores"
        )
    return settings


def hypothesis_normalization_of(wildcards):
    """The benchmark's `normalize_hypotheses` (a scoring option; None: none)."""
    return BENCHMARKS[wildcards.benchmark].get("normalize_hypotheses")


def comet_settings_of(wildcards):
    """scoring.comet, plus the benchmark's `normalize_hypotheses` when it sets one (only
    then: existing COMET results, protected GPU outputs, are not rerun for a null)."""
    name = hypothesis_normalization_of(wildcards)
    return {**comet_settings(), **({"normalize_hypotheses": name} if name else {})}


def corpus_groups_of(wildcards):
    return BENCHMARKS[wildcards.benchmark].get("corpus_groups", [])


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
    settings = config.get("scoring", {}).get("bertscore")
    if settings is None and any(
        "bertscore" in spec.get("metrics", []) for spec in BENCHMARKS.values()
    ):
        raise WorkflowError(
            "a benchmark lists the metric bertscore, but scoring.bertscore (model, and "
            "num_layers for a model bert-score does not know) is not configured"
        )
    return settings or {}


def bertscore_gpus(wildcards):
    return int(bertscore_settings().get("gpus", 1))


# --- placement on a SLURM cluster (profiles/slurm) -----------------------------------------
# The user's own settings, from the environment of the launching Snakemake (README, "On a SLURM
# cluster"); "" means the cluster's default. Only jobs that use GPUs go to the GPU partition and
# name a GPU model (the plugin would otherwise ask for `--gpus=<model>:0`). Placement never
# changes a result, so it is a resource, not a param.
def slurm_partition(gpus):
    env = os.environ
    if gpus > 0:
        return env.get("GENDERMT_SLURM_GPU_PARTITION") or env.get("GENDERMT_SLURM_PARTITION", "")
    return env.get("GENDERMT_SLURM_PARTITION", "")


def slurm_gpu_model(gpus):
    return os.environ.get("GENDERMT_SLURM_GPU_MODEL", "") if gpus > 0 else ""


def translation_partition(wildcards):
    return slurm_partition(translation_gpus(wildcards))


def translation_gpu_model(wildcards):
    return slurm_gpu_model(translation_gpus(wildcards))


def comet_partition(wildcards):
    return slurm_partition(comet_gpus(wildcards))


def comet_gpu_model(wildcards):
    return slurm_gpu_model(comet_gpus(wildcards))


# --- targets --------------------------------------------------------------------------
def score_records(benchmark):
    """Every score file of a benchmark as a record: each run's sacrebleu scores ({system,
    prompt, path}), and COMET's and BERTScore's files of all runs when they are asked for
    ({path}: their rows name system and prompt)."""
    spec = BENCHMARKS[benchmark]
    records = run_records(f"{RESULTS}/{{benchmark}}/scores/{{system}}/{{prompt}}.parquet",
                          benchmark)
    if "comet" in spec.get("metrics", []):
        # one file for all runs: COMET scores each distinct triple once (scoring/comet.py)
        records.append({"path": f"{RESULTS}/{benchmark}/scores/comet.parquet"})
    if "bertscore" in spec.get("metrics", []):
        records.append({"path": f"{RESULTS}/{benchmark}/scores/bertscore.parquet"})
    return records


def score_files(benchmark):
    """Every score file of a benchmark: sacrebleu metrics, and COMET when it is asked for."""
    return [r["path"] for r in score_records(benchmark)]


def benchmark_translations(wildcards):
    """Every translation file of a benchmark (the COMET job scores them all at once)."""
    return run_files(f"{RESULTS}/{{benchmark}}/translations/{{system}}/{{prompt}}.jsonl",
                     wildcards.benchmark)


# --- GATE X-E ----------------------------------------------------------------------------
def gate_x_e_files(root, languages):
    """The published GATE_data_*.txt files of the configured languages."""
    from gendermt.benchmarks.gate_x_e.data import data_files

    try:
        return [str(p) for p in data_files(root, languages)]
    except GenderMTError as exc:
        raise WorkflowError(f"benchmarks.gate-x-e.data: {exc}")


def gate_x_e_template(wildcards):
    return TEMPLATES["gate-x-e"][wildcards.prompt]


def neogate_flores_template(wildcards):
    """A Neo-GATE FLORES template with its chat demonstrations (neogate/flores.py)."""
    from gendermt.benchmarks.neogate.flores import load_template

    return load_template(BENCHMARKS["neogate-flores"]["templates"], wildcards.prompt)


def gate_x_e_answer(wildcards):
    """How a GATE X-E prompt's answers are read: three variants, or the neutral one alone."""
    return TEMPLATES["gate-x-e"][wildcards.prompt].get("answer", "variants")


# --- GATE ---------------------------------------------------------------------------------
def gate_files(root, languages):
    """The published XX_2_variants.tsv files of the configured languages."""
    from gendermt.benchmarks.gate.data import variant_files

    try:
        return [str(p) for p in variant_files(root, languages)]
    except GenderMTError as exc:
        raise WorkflowError(f"benchmarks.gate.data: {exc}")


def gate_template(wildcards):
    return TEMPLATES["gate"][wildcards.prompt]


# Each benchmark's rule file adds the tables and figures it makes.
TARGETS: list[str] = []

# Tables of the report: csv path → its report entry; rule report_tables renders each as an
# HTML page the report shows inline (Snakemake shows CSVs only as download links).
REPORT_TABLES: dict[str, dict] = {}


def table_report(path, caption, category, subcategory, labels=None):
    """A table (CSV) for the report: registered for its HTML page; returns the plain path."""
    REPORT_TABLES[path] = {
        "caption": caption,
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
    return TARGETS


# --- ConGA: annotators' files of one system's outputs ({system}, {prompt} substituted) ----
def conga_annotation_files(wildcards):
    """The configured annotation files that exist for this system and prompt."""
    specs = BENCHMARKS.get("conga", {}).get("annotations", {}).get("files", [])
    found = []
    for spec in specs:
        path = spec["path"].format(system=wildcards.system, prompt=wildcards.prompt)
        if os.path.exists(path):
            found.append({"path": path, "format": spec.get("format", "inline")})
    return found


def conga_annotation_paths(wildcards):
    return [spec["path"] for spec in conga_annotation_files(wildcards)]


# --- Neo-GATE: a run (prompt format × shots × paradigm) is one value of {prompt} ---------
def neogate_run(wildcards):
    return NEOGATE_RUNS[wildcards.prompt]


def neogate_template(wildcards):
    return NEOGATE_TEMPLATES[NEOGATE_RUNS[wildcards.prompt]["format"]]


# --- GAMBIT: runs are model × target language; detectors turn outputs into assignments -----
def gambit_runs(spec):
    """Every (model, system, lang) GAMBIT runs: `systems` run on every target language under
    their own name; `language_systems` maps a model label to its system per language (NMT
    systems are one per language pair). Unknown systems or languages stop the workflow."""
    langs = spec["prompts"]
    runs = [{"model": s, "system": s, "lang": lang} for s in spec["systems"] for lang in langs]
    for model, per_lang in spec.get("language_systems", {}).items():
        for lang, system in per_lang.items():
            if lang not in langs:
                raise WorkflowError(
                    f"benchmarks.gambit.language_systems.{model} names the language {lang!r}, "
                    f"which is not among the prompts (target languages) {langs}"
                )
            if system not in SYSTEMS:
                raise WorkflowError(
                    f"benchmarks.gambit.language_systems.{model}.{lang} names {system!r}, "
                    f"which is not defined under `systems:`"
                )
            runs.append({"model": model, "system": system, "lang": lang})
    detectors = spec["detectors"]
    if spec.get("detector", next(iter(detectors))) not in detectors:
        raise WorkflowError(
            f"benchmarks.gambit.detector is {spec['detector']!r}, which is not among the "
            f"detectors {list(detectors)}"
        )
    for name, detector in detectors.items():
        if "system" in detector and detector["system"] not in SYSTEMS:
            raise WorkflowError(
                f"benchmarks.gambit.detectors.{name}.system names {detector['system']!r}, "
                f"which is not defined under `systems:`"
            )
        missing = [l for l in langs if "lexicons" in detector and l not in detector["lexicons"]]
        if missing:
            raise WorkflowError(
                f"benchmarks.gambit.detectors.{name} has no lexicon for {missing}: add one "
                f"per target language under `lexicons:`"
            )
    unknown = [l for l in spec.get("validation", {}) if l not in langs]
    if unknown:
        raise WorkflowError(
            f"benchmarks.gambit.validation names {unknown}, which are not among the target "
            f"languages {langs}"
        )
    return runs


def gambit_detector(wildcards):
    """A detector's config block, with its name (a param: changing it reruns detection)."""
    detectors = BENCHMARKS["gambit"]["detectors"]
    return {"name": wildcards.detector, **detectors[wildcards.detector]}


def gambit_judge_system(wildcards):
    """The chat system an LLM-judge detector runs on (its settings are a param too)."""
    detector = BENCHMARKS["gambit"]["detectors"][wildcards.detector]
    return {detector["system"]: SYSTEMS[detector["system"]]} if "system" in detector else {}


def gambit_detector_files(wildcards):
    """Files a detector reads: the language's lexicon, or the judge's prompt templates."""
    detector = BENCHMARKS["gambit"]["detectors"][wildcards.detector]
    files = [detector["templates"]] if "templates" in detector else []
    lexicon = detector.get("lexicons", {}).get(wildcards.prompt)
    if lexicon:
        files.append(lexicon)
        # the language's agreement cues, beside the lexicon
        cues = cues_path_for(lexicon)
        files += [str(cues)] if cues.exists() else []
    return files


def gambit_detector_gpus(wildcards):
    detector = BENCHMARKS["gambit"]["detectors"][wildcards.detector]
    return system_gpus(SYSTEMS[detector["system"]]) if "system" in detector else 0


def gambit_detector_partition(wildcards):
    return slurm_partition(gambit_detector_gpus(wildcards))


def gambit_detector_gpu_model(wildcards):
    return slurm_gpu_model(gambit_detector_gpus(wildcards))


def gambit_validation_file(wildcards):
    return BENCHMARKS["gambit"]["validation"][wildcards.prompt]


def gambit_labour_files():
    """The labour-statistics file of each target language that has one."""
    spec = BENCHMARKS.get("gambit", {})
    labour = spec.get("references", {}).get("labour", {})
    return {lang: path for lang, path in labour.items() if lang in spec.get("prompts", [])}


def gambit_assignments(runs, detector):
    """A detector's assignment files of every run, in the order of `runs`."""
    return [f"{RESULTS}/gambit/assignments/{detector}/{r['system']}/{r['lang']}.csv" for r in runs]


def gambit_template(wildcards):
    return TEMPLATES["gambit"][wildcards.prompt]


def gambit_figure_caption(name):
    """The intra-model tables and heatmaps of every language share one caption."""
    return "intra_model" if name.startswith("intra_model_") else name
