"""Each benchmark's runs as records ({system, prompt, ...}; a run's files are
<stage>/{system}/{prompt}.*) and the files they make (``workflow/rules/common.smk`` binds
these by name).

A run is each system on each prompt, or on the prompts its `system_prompts` gives it, unless
the benchmark's rule file sets ``BENCHMARK_RUNS["<name>"]`` (Neo-GATE sets systems x runs and
paradigm systems, GAMBIT model x language). The one family of run helpers: run_records, and
run_paths for a rule's inputs and its `params: runs=`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from snakemake.io import ancient, expand

from gendermt.translation.backends import system_gpus
from gendermt.translation.source_translations import shares_source_translation
from gendermt.workflow.job_size import JobSize, translation_size


class Runs:
    """The runs of one config's benchmarks, and their files under `results`."""

    def __init__(self, benchmarks: dict, systems: dict, results: str) -> None:
        self.benchmarks = benchmarks
        self.systems = systems
        self.results = results
        # set by the benchmarks' rule files, read when jobs are planned (BENCHMARK_RUNS)
        self.runs: dict[str, list[dict]] = {}
        # benchmark → (its runs' identity, system → prompts): input functions ask per job
        self._prompts_of: dict[str, tuple] = {}
        # (system, GPUs, reads the shared sources' file) → its jobs' request (read once: a
        # model's size comes from its files)
        self._sizes: dict[tuple[str, int, bool], JobSize] = {}
        # whether a translation job's outputs were made with its system's current settings
        # and code (gendermt.workflow.made_with; set by the workflow): its links below are
        # ancient only then
        self.made_with_current: Callable[[Any], bool] = lambda wildcards: True

    def run_records(self, benchmark: str) -> list[dict]:
        """{system, prompt, ...} of every run of a benchmark."""
        if benchmark in self.runs:
            return self.runs[benchmark]
        spec = self.benchmarks[benchmark]
        only = spec.get("system_prompts", {})
        return [{"system": s, "prompt": p} for s in spec["systems"] for p in spec["prompts"]
                if p in only.get(s, spec["prompts"])]

    def run_paths(self, pattern: str, benchmark: str, **patterns: str) -> list[dict]:
        """{system, prompt, path} of every run of a benchmark (run_records), `path` being
        `pattern` ({benchmark}, {system}, {prompt}) filled in, once per path, and a key per
        further pattern (`summary=...`: the run's other files): what an aggregate stage
        receives (`params: runs=`), so that no stage reads a run's system and prompt back out
        of its path."""
        found: dict[str, dict] = {}
        for r in self.run_records(benchmark):
            fill = dict(benchmark=benchmark, system=r["system"], prompt=r["prompt"])
            path = pattern.format(**fill)
            found.setdefault(path, {"system": r["system"], "prompt": r["prompt"], "path": path,
                                    **{k: p.format(**fill) for k, p in patterns.items()}})
        return list(found.values())

    def translation_records_of(self, wildcards: Any) -> list[dict]:
        """{system, prompt, path} of every translation file of a benchmark."""
        return self.run_paths(
            f"{self.results}/{{benchmark}}/translations/{{system}}/{{prompt}}.jsonl",
            wildcards.benchmark)

    def translation_files_of(self, wildcards: Any) -> list[str]:
        """Every translation file of a benchmark, whatever its runs are made of."""
        return [r["path"] for r in self.translation_records_of(wildcards)]

    def output_check_records_of(self, wildcards: Any) -> list[dict]:
        """{system, prompt, path, inputs} of every translation file of a benchmark, with the
        requests it answered (the output_checks rule)."""
        return [
            {**r, "inputs": f"{self.results}/{wildcards.benchmark}/inputs/{r['prompt']}.jsonl"}
            for r in self.translation_records_of(wildcards)
        ]

    def output_check_inputs_of(self, wildcards: Any) -> list[str]:
        """The request files of a benchmark's translation files (once each)."""
        return sorted({r["inputs"] for r in self.output_check_records_of(wildcards)})

    def score_records(self, benchmark: str) -> list[dict]:
        """Every score file of a benchmark as a record: each run's sacrebleu scores ({system,
        prompt, path}), and COMET's and BERTScore's files of all runs when they are asked for
        ({path}: their rows name system and prompt)."""
        spec = self.benchmarks[benchmark]
        records = self.run_paths(
            f"{self.results}/{{benchmark}}/scores/{{system}}/{{prompt}}.parquet", benchmark)
        if "comet" in spec.get("metrics", []):
            # one file for all runs: COMET scores each distinct triple once (scoring/comet.py)
            records.append({"path": f"{self.results}/{benchmark}/scores/comet.parquet"})
        if "bertscore" in spec.get("metrics", []):
            records.append({"path": f"{self.results}/{benchmark}/scores/bertscore.parquet"})
        return records

    # --- one translation of the distinct sources per system and benchmark (NMT, Apertium:
    # systems that read only the source; gendermt/translation/source_translations.py) -------
    def system_prompts(self, benchmark: str, system: str) -> list[str]:
        """The prompts (Neo-GATE: runs; GAMBIT: languages) a system translates in a benchmark."""
        runs = self.runs.get(benchmark)
        token = None if runs is None else (id(runs), len(runs))
        known = self._prompts_of.get(benchmark)
        if known is None or known[0] != token:
            index: dict[str, dict[str, None]] = {}
            for r in self.run_records(benchmark):
                index.setdefault(r["system"], {}).setdefault(r["prompt"], None)
            known = self._prompts_of[benchmark] = (token,
                                                   {s: list(p) for s, p in index.items()})
        return list(known[1].get(system, ()))

    def shares_source_translation_of(self, benchmark: str, system: str) -> bool:
        """Whether a system's prompts of a benchmark share one translation of the sources."""
        return shares_source_translation(self.systems[system],
                                         len(self.system_prompts(benchmark, system)))

    def source_translation_of(self, wildcards: Any) -> list:
        """The system's translation of the distinct sources, for a prompt's job of a system that
        shares one; ancient: re-made when a prompt is added, it reruns no existing prompt's
        job (unless the job's settings changed: :meth:`_after`)."""
        if not self.shares_source_translation_of(wildcards.benchmark, wildcards.system):
            return []
        return [self._after(f"{self.results}/{wildcards.benchmark}/sources/"
                            f"{wildcards.system}.jsonl", wildcards)]

    def _after(self, path: str, wildcards: Any) -> Any:
        """``path`` as an input of a translation job that only has to come after it: ancient
        while the job's outputs were made with its system's current settings and code, else
        plain, so that the job reruns with the job making ``path`` (Snakemake skips its own
        checks of a job below one that reruns: gendermt.workflow.made_with)."""
        return ancient(path) if self.made_with_current(wildcards) else path

    def source_inputs_of(self, wildcards: Any) -> list[str]:
        """The request files of every prompt a system translates in a benchmark."""
        return expand(
            f"{self.results}/{{benchmark}}/inputs/{{prompt}}.jsonl",
            benchmark=wildcards.benchmark,
            prompt=self.system_prompts(wildcards.benchmark, wildcards.system),
        )

    # --- the paid work of commercial MT-service systems, counted over all their jobs before
    # the first request (gendermt/translation/paid_work.py) -----------------------------------
    def paid_work_jobs(self) -> list[dict]:
        """{system, benchmark, inputs, settings} of every translation run of a service
        system (the paid_work job's params: its settings that change the count only)."""
        from gendermt.translation.paid_work import service_jobs

        config = {"benchmarks": self.benchmarks, "systems": self.systems}
        return service_jobs(config, self.results, self.run_records)

    def paid_work_inputs(self, wildcards: Any = None) -> list[str]:
        """The request files of every translation run of a service system (once each)."""
        return sorted({j["inputs"] for j in self.paid_work_jobs()})

    def paid_work_of(self, wildcards: Any) -> list:
        """``paid_work.json`` for a service system's translation jobs (they wait for the count
        of all its jobs), [] for every other system (their jobs' inputs are unchanged);
        ancient: a recount (a benchmark added) reruns no translation (unless the job's
        settings changed: :meth:`_after`)."""
        from gendermt.translation.paid_work import is_service_system

        if not is_service_system(self.systems[wildcards.system]):
            return []
        return [self._after(f"{self.results}/paid_work.json", wildcards)]

    def source_gpus(self, wildcards: Any) -> int:
        """GPUs of a system's job over the distinct sources."""
        return system_gpus(self.systems[wildcards.system])

    def translation_gpus(self, wildcards: Any) -> int:
        """GPUs of a prompt's translation job."""
        # a prompt's job of a system that shares one translation of the distinct sources only
        # reads that file: no GPU (the sources job has it)
        if self.shares_source_translation_of(wildcards.benchmark, wildcards.system):
            return 0
        return system_gpus(self.systems[wildcards.system])

    def _size(self, system: str, gpus: int, reads_shared: bool) -> JobSize:
        key = (system, gpus, reads_shared)
        if key not in self._sizes:
            self._sizes[key] = translation_size(self.systems[system], gpus,
                                                reads_shared=reads_shared)
        return self._sizes[key]

    def source_size(self, wildcards: Any) -> JobSize:
        """Memory, time and CPUs of a system's job over the distinct sources."""
        return self._size(wildcards.system, self.source_gpus(wildcards), False)

    def translation_size(self, wildcards: Any) -> JobSize:
        """Memory, time and CPUs of a prompt's translation job: small for a job that reads
        files (an oracle, stored outputs, the shared sources' translation)."""
        shared = self.shares_source_translation_of(wildcards.benchmark, wildcards.system)
        return self._size(wildcards.system, self.translation_gpus(wildcards), shared)
