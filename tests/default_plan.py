"""The default run's plan, read from config/config.yaml: which systems run which prompts of
each benchmark, so that the default's workflow tests expect the jobs and rows the config asks
for, and adding a system to the default edits no test.

The rule is the one the workflow documents (``system_prompts`` in docs/configuration.md): a
system runs every prompt of its benchmark, or the ones ``system_prompts`` gives it; Neo-GATE
adds its ``paradigm_systems``. The tests still fail on a wrong plan: they compare the jobs and
tables the run made with these sets, not with the run's own listing.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "config" / "config.yaml"
# backends that run a model (their outputs vary; they are cached and timed)
MODEL_BACKENDS = {"hf-causal", "hf-seq2seq", "openai", "vllm", "apertium"}


@cache
def default_config() -> dict:
    return yaml.safe_load(CONFIG.read_text(encoding="utf-8"))


def benchmark(name: str) -> dict:
    return default_config()["benchmarks"][name]


def systems(name: str) -> list[str]:
    """The systems of a benchmark, in the config's order."""
    return list(benchmark(name)["systems"])


def prompts(name: str) -> list[str]:
    return list(benchmark(name)["prompts"])


def runs(name: str) -> list[tuple[str, str]]:
    """(system, prompt) of every run of a benchmark (not Neo-GATE's paradigm runs)."""
    spec = benchmark(name)
    only = spec.get("system_prompts", {})
    return [(s, p) for s in spec["systems"] for p in spec["prompts"]
            if p in only.get(s, spec["prompts"])]


def prompts_of(name: str, system: str) -> list[str]:
    return [p for s, p in runs(name) if s == system]


def backend(system: str) -> str:
    return default_config()["systems"][system]["backend"]


def llms(name: str) -> list[str]:
    """The systems of a benchmark that run a model (the default's real LLMs)."""
    spec = benchmark(name)
    every = [*spec["systems"],
             *(s for group in spec.get("paradigm_systems", {}).values() for s in group)]
    return [s for s in dict.fromkeys(every) if backend(s) in MODEL_BACKENDS]


def offline(name: str) -> list[str]:
    """The systems of a benchmark that need no model (oracles, baselines, stored outputs)."""
    return [s for s in systems(name) if backend(s) not in MODEL_BACKENDS]


def neogate_pairs(spec: dict | None = None) -> list[tuple[str, str]]:
    """(system, run) of every Neo-GATE run: its systems on every run (prompt format × shots ×
    paradigm), each paradigm's own (``paradigm_systems``) on that paradigm's runs."""
    spec = benchmark("neogate") if spec is None else spec
    own = spec.get("paradigm_systems", {})
    pairs = []
    for paradigm in spec["paradigms"]:
        names = [f"{fmt}-{paradigm}" if fmt == "zeroshot" else f"{fmt}-{k}shot-{paradigm}"
                 for fmt in spec["prompts"] for k in ([None] if fmt == "zeroshot"
                                                      else spec["shots"])]
        systems_here = dict.fromkeys([*spec["systems"], *own.get(paradigm, [])])
        pairs += [(system, name) for name in names for system in systems_here]
    return pairs
