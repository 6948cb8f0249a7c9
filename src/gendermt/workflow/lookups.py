"""The config lookups the rule files call: a job's template, a system's settings, threads and
GPUs, a benchmark's scoring options (``workflow/rules/common.smk`` binds them by name).

Each reads the config only: what a job's params and resources are follows from the config
and its wildcards, never from files or the time a function is called.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from snakemake.exceptions import WorkflowError

from gendermt.config.systems import settings_on
from gendermt.core import backends
from gendermt.core.backends import BACKENDS, system_kind
from gendermt.core.errors import GenderMTError
from gendermt.scoring.metrics import NEURAL_METRICS
from gendermt.scoring.normalization import normalizer_module
from gendermt.translation.backends import output_settings, system_modules
from gendermt.workflow.stage_versions import stage_code
from gendermt.workflow.translation_code import translation_code_of


def configured(key: str, lookup: Callable[..., Any], *args: Any) -> Any:
    """``lookup(*args)`` (e.g. a benchmark's data files); its error stops the workflow,
    naming the config key."""
    try:
        return lookup(*args)
    except GenderMTError as exc:
        raise WorkflowError(f"{key}: {exc}") from exc


class Lookups:
    """The lookups of one config (its systems, benchmark blocks, checked templates)."""

    def __init__(self, config: dict, templates: dict) -> None:
        self.config = config
        self.systems = config["systems"]
        self.benchmarks = config["benchmarks"]
        self.templates = templates

    def benchmark_spec(self, name: str) -> dict:
        """A configured benchmark's block, by the benchmark's name (its rule file keeps it in a
        global named after its benchmark, `WINO_X = benchmark_spec("wino-x")`, or calls this in
        its lambdas). Never in a shared name such as `SPEC`: every rule file runs in one
        namespace, and the next file would rebind it before any lambda of this one ran."""
        try:
            return self.benchmarks[name]
        except KeyError:
            raise WorkflowError(f"benchmarks.{name}: not configured, its rule file is not "
                                "included (Snakefile: registry.configured)") from None

    # --- templates and systems ---------------------------------------------------------
    def template_of(self, wildcards: Any) -> Any:
        """The template of the job's benchmark and prompt."""
        return self.templates[wildcards.benchmark][wildcards.prompt]

    def template_for(self, benchmark: str, wildcard: str = "prompt") -> Callable[[Any], Any]:
        """A benchmark's template of the job's prompt (for rules without {benchmark}); its rules
        may name the prompt's wildcard by what it is (GAMBIT's {lang})."""
        return lambda wildcards: self.templates[benchmark][getattr(wildcards, wildcard)]

    def system_output_settings(self, wildcards: Any) -> Any:
        """The settings that change a system's outputs on this benchmark (its `systems:` entry
        with the benchmark's `decoding:` overrides; not concurrency, timeouts, threads, ...)."""
        return output_settings(settings_on(self.config, wildcards.benchmark, wildcards.system))

    def translation_code(self, wildcards: Any) -> Any:
        """The declared versions of the translation runner and this system's backend, and the
        code of what the backend loads by name (a stored format's reader)."""
        return translation_code_of(self.systems[wildcards.system])

    def backend_modules_of(self, *systems: str) -> list[str]:
        """The backend modules of the configured systems a stage builds (an LLM judge, an
        annotator): its fingerprint covers those backends and no other."""
        return sorted({m for s in systems for m in system_modules(self.systems[s])})

    def translation_threads(self, wildcards: Any) -> int:
        """CPU threads of a translation job: the system's `threads` (default 1: two one-thread
        model jobs on 2 cores outrun two two-thread jobs that fight over them)."""
        return int(self.systems[wildcards.system].get("threads", 1))

    def model_files_of(self, wildcards: Any) -> list[str]:
        """A GGUF file a system's model names (an input: a changed file reruns its jobs)."""
        # imported here: only a config with a model backend needs the GGUF reader
        from gendermt.translation.backends.gguf import is_gguf, locate

        settings = self.systems[wildcards.system]
        model = str(settings.get("model", ""))
        reads_gguf = getattr(BACKENDS.get(settings.get("backend", "")), "reads_gguf", False)
        if not reads_gguf or not is_gguf(model):
            return []
        try:
            return [str(locate(model))]
        except GenderMTError as exc:
            raise WorkflowError(f"systems.{wildcards.system}: {exc}") from exc

    def system_kinds(self, systems: Any) -> dict[str, str]:
        """model, baseline or oracle per system (means over systems count models only)."""
        return {s: system_kind(self.systems[s]) for s in systems}

    def stored_outputs_of(self, wildcards: Any) -> list[str]:
        """A `stored` system's file for this job (an input: replacing it reruns the job)."""
        settings = self.systems[wildcards.system]
        about = backends.info(str(settings.get("backend", "")))
        stored = [k for k, what in (about.files.items() if about else ()) if what ==
                  "stored outputs"]  # the settings its module declares to name them
        if not stored:
            return []
        # imported here: only a config with a stored system needs its reader
        from gendermt.translation.backends.stored import resolve_path

        return [resolve_path(settings[key], {"benchmark": wildcards.benchmark,
                                             "prompt": wildcards.prompt}) for key in stored]

    # --- post-processing and scoring ---------------------------------------------------
    def postprocess_of(self, wildcards: Any) -> list:
        """The benchmark's post-processing steps of raw outputs."""
        return self.benchmarks[wildcards.benchmark].get("postprocess", [])

    def sacrebleu_metrics_of(self, wildcards: Any) -> list[str]:
        """The benchmark's metrics that sacrebleu computes (not the neural ones)."""
        return [
            m
            for m in self.benchmarks[wildcards.benchmark].get("metrics", [])
            if m not in NEURAL_METRICS
        ]

    def metric_options(self, wildcards: Any) -> dict[str, dict]:
        """scoring.<metric> of each of the benchmark's sacrebleu metrics ({} when unset)."""
        scoring = self.config.get("scoring", {})
        return {m: scoring.get(m) or {} for m in self.sacrebleu_metrics_of(wildcards)}

    def hypothesis_normalization_of(self, wildcards: Any) -> str | None:
        """The benchmark's `normalize_hypotheses` (a scoring option; None: none)."""
        return self.benchmarks[wildcards.benchmark].get("normalize_hypotheses")

    def scoring_code(self, module: str) -> Callable[[Any], str]:
        """A scoring job's code param: `module` and the module of the benchmark's normaliser,
        which the job loads by name (a contract's `normalizers`), and no other."""
        def code(wildcards: Any) -> str:
            own = normalizer_module(self.hypothesis_normalization_of(wildcards))
            return stage_code(module, *([own] if own else []))
        return code

    def comet_settings_of(self, wildcards: Any) -> dict:
        """scoring.comet, plus the benchmark's `normalize_hypotheses` when it sets one (only
        then: existing COMET results, protected GPU outputs, are not rerun for a null)."""
        name = self.hypothesis_normalization_of(wildcards)
        return {**self.comet_settings(), **({"normalize_hypotheses": name} if name else {})}

    def corpus_groups_of(self, wildcards: Any) -> list:
        """The benchmark's `corpus_groups` (corpus scores per group)."""
        return self.benchmarks[wildcards.benchmark].get("corpus_groups", [])

    def bleu_tokenizers(self) -> dict:
        """scoring.tokenize: BLEU's tokenizer per target language (and `default`)."""
        return self.config.get("scoring", {}).get("tokenize", {})

    def statistics_settings(self) -> dict:
        """statistics: bootstrap resamples, seed and confidence level of the tables."""
        return self.config.get("statistics", {})

    def comet_settings(self) -> dict:
        """scoring.comet."""
        return self.config.get("scoring", {}).get("comet", {})

    def comet_gpus(self, wildcards: Any) -> int:
        """GPUs of a COMET job (scoring.comet.gpus, default 1)."""
        return int(self.comet_settings().get("gpus", 1))

    def bertscore_settings(self) -> dict:
        """scoring.bertscore ({} when unset)."""
        # (configured when a benchmark lists bertscore: checked at start-up)
        return self.config.get("scoring", {}).get("bertscore") or {}

    def bertscore_gpus(self, wildcards: Any) -> int:
        """GPUs of a BERTScore job (scoring.bertscore.gpus, default 1)."""
        return int(self.bertscore_settings().get("gpus", 1))
