"""The run ``gendermt run`` makes: a study's config with one more system (the researcher's
model) on every chosen benchmark, each with the prompts that fit it.

What fits (docs/run.md):

- an MT system that reads the source only (NMT, MT services, Apertium: the backend is not
  ``prompted``) runs every prompt of a translation benchmark (one translation of the sources,
  shared) and no rewriting benchmark (GATE, GATE X-E: :func:`rewrites`);
- stored outputs, a reference oracle or the source copied run every prompt of every
  benchmark;
- a chat LLM runs the prompts that are instructions (every prompt whose template has no
  ``demonstration``);
- a base LLM (no chat template: ``chat_template: none``) runs the completion-style few-shot
  prompts (a template with a ``demonstration``), and ends each answer at the newline.

A benchmark where nothing fits is left out of ``--benchmarks all`` with a note, and refused
when it was named. Everything is decided here, before Snakemake starts and before any weights
load; the config written (``results/<run>/config.yaml``) says all of it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from gendermt.config.files import read_config
from gendermt.config.project import names_project_file, project_file
from gendermt.core import backends, registry
from gendermt.core.errors import GenderMTError

#: ``--study`` names → the config files they are, from the project's root.
STUDIES = {"default": ("config/config.yaml",), "public": ("config/study/public.yaml",)}
#: Where a study config finds the systems of its papers (a study file named alone needs it).
STUDY_SYSTEMS = "config/study/systems.yaml"
#: What a base LLM's answer ends at (docs/base-models.md).
BASE_DEFAULTS = {"chat_template": "none", "stop": ["\n"]}


@dataclass
class OwnRun:
    """The run's config, its name, and what was left out and why (printed at start)."""

    config: dict[str, Any]
    run: str
    system: str
    style: str
    notes: list[str] = field(default_factory=list)


def study_files(study: str) -> list[Path]:
    """The config files of ``--study``: default, public, a study of ``config/study/`` by name,
    or a config file's path."""
    if study in STUDIES:
        return [project_file(p) for p in STUDIES[study]]
    named = project_file(f"config/study/{study}.yaml")
    if named.is_file() and "/" not in study:
        files = [named]
        data = read_config(named)
        used = {s for b in (data.get("benchmarks") or {}).values() for s in b.get("systems", [])}
        if not used <= set(data.get("systems") or {}):  # its systems are in systems.yaml
            files.insert(0, project_file(STUDY_SYSTEMS))
        return files
    path = Path(study)
    if path.is_file():
        return [path]
    known = ", ".join([*STUDIES, *sorted(p.stem for p in project_file("config/study").glob(
        "*.yaml") if p.stem != "systems")])
    raise GenderMTError(f"--study {study}: neither a study ({known}) nor a config file")


def merged(files: Sequence[Path]) -> dict[str, Any]:
    """The files' config as Snakemake merges them: mappings key by key, the rest replaced."""
    def merge(into: dict[str, Any], new: Mapping[str, Any]) -> None:
        for key, value in new.items():
            if isinstance(value, Mapping) and isinstance(into.get(key), dict):
                merge(into[key], value)
            else:
                into[key] = json.loads(json.dumps(value))  # a copy, plain types
    config: dict[str, Any] = {}
    for path in files:
        merge(config, read_config(path))
    return config


def parse_model(model: str, options: Sequence[str]) -> dict[str, Any]:
    """A system's settings from ``BACKEND:MODEL`` and ``key=value`` options (values read as
    YAML: numbers, booleans, lists)."""
    backend, colon, name = model.partition(":")
    about = backends.info(backend)
    if not colon or about is None:
        raise GenderMTError(f"--model {model}: give BACKEND:MODEL with a backend of "
                            f"{', '.join(backends.names())} (e.g. hf-causal:HuggingFaceTB/"
                            "SmolLM2-135M-Instruct); `gendermt run --help` has an example each")
    settings: dict[str, Any] = {"backend": backend}
    key = about.cli_setting  # what its module declares (gendermt.core.backends)
    if name and key is None:
        raise GenderMTError(f"--model {model}: backend {backend} takes no model; give "
                            f"{backend}: alone and its settings as --option key=value")
    if name:
        settings[key] = name.split(",") if key == "modes" else name
    for option in options:
        k, eq, v = option.partition("=")
        if not eq or not k.strip():
            raise GenderMTError(f"--option {option}: give key=value (e.g. max_new_tokens=64)")
        try:
            settings[k.strip()] = yaml.safe_load(v) if v.strip() else ""
        except yaml.YAMLError:
            settings[k.strip()] = v
    return settings


def system_name(settings: Mapping[str, Any], name: str | None) -> str:
    """``--name``, else the model's file or folder name, as a system name (the schema's)."""
    if name:
        shown = name
    else:
        what = str(settings.get("model") or settings.get("path") or settings.get("reference")
                   or "")
        shown = Path(what.split("{", 1)[0].rstrip("/")).name.removesuffix(".gguf") if what \
            else str(settings["backend"])
    found = re.sub(r"[^A-Za-z0-9_.+-]+", "-", shown).strip("-._+")[:64]
    if not found or (name and found != name):
        raise GenderMTError(f"--name {shown!r}: a system name is letters, digits and _.+- "
                            "(first a letter or digit), at most 64 characters")
    return found


def prompt_style(settings: Mapping[str, Any]) -> str:
    """``source`` (reads the source only), ``rewriter`` (rewrites English only), ``offline``
    (outputs given: stored, an oracle, the source), ``chat`` or ``base`` (an LLM without a
    chat template), read without loading any weights."""
    cls = backends.backend_class(settings)  # an unknown backend: its error, naming the known
    about = backends.info(str(settings["backend"]))
    style = about.style if about else ("llm" if cls.prompted else "source")
    if style != "llm":
        return style  # reads the source, rewrites, or its outputs are given
    template = settings.get("chat_template")
    if template is not None:
        return "base" if template == BASE_DEFAULTS["chat_template"] else "chat"
    # the backend reads its model's own header or tokenizer files (no weights)
    return "chat" if cls.has_chat_template(settings) else "base"


def _completion_prompts(name: str, spec: Mapping[str, Any]) -> set[str] | None:
    """The benchmark's prompts that are completion-style (few-shot for base models); None
    when the benchmark renders its own messages (no templates file to read)."""
    if registry.get(name).templates or not spec.get("templates"):
        return None
    path = Path(spec["templates"])
    path = path if path.is_file() else project_file(spec["templates"])
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return {p for p, t in (data.get("templates") or {}).items()
            if isinstance(t, Mapping) and "demonstration" in t}


def rewrites(benchmark: Any) -> bool:
    """Whether a benchmark's systems rewrite a given text rather than translate a source:
    its prompts hand them the translation to rewrite (the ``translation`` placeholder of its
    contract). Read from what the contract already declares, not a new field: every
    stage's code fingerprint covers gendermt.core.contract, so a new field there would
    redo every data stage, and with it every protected translation, of every existing
    results folder."""
    return "translation" in benchmark.placeholders


def fitting_prompts(name: str, spec: Mapping[str, Any], style: str) -> tuple[list[str], str]:
    """The benchmark's prompts a system of this style runs, or ``[]`` and why none."""
    from gendermt.config.languages import target_languages

    benchmark = registry.get(name)
    prompts = list(spec.get("prompts") or [])
    if style == "source" and rewrites(benchmark):
        return [], f"{name} rewrites a given text; an MT system that reads the source cannot"
    if style == "rewriter" and (not rewrites(benchmark)
                                or target_languages(name, spec) != ["en"]):
        return [], f"{name} is not English rewriting, all the rule rewriter does"
    if style in ("source", "rewriter", "offline"):
        return prompts, ""
    completion = _completion_prompts(name, spec)
    if completion is None:
        completion = set()
    fit = [p for p in prompts if (p in completion) == (style == "base")]
    if not fit:
        want = "completion-style few-shot prompt (a template with a demonstration)" \
            if style == "base" else "instruction prompt"
        return [], f"{name} has no {want} among its prompts {prompts}"
    allows = "system_prompts" in registry.schema_fragment(benchmark).get("properties", {})
    if fit != prompts and not allows:
        return [], f"{name} cannot give a system some of its prompts only ({prompts})"
    return fit, ""


def chosen_benchmarks(config: Mapping[str, Any], wanted: str) -> tuple[list[str], bool]:
    """``--benchmarks``: all of the study's, or the names given (each in the study)."""
    have = list(config.get("benchmarks") or {})
    if wanted.strip() in ("", "all"):
        return have, False
    names = [b.strip() for b in wanted.split(",") if b.strip()]
    for b in names:
        if b not in have:
            registry.get(b)  # an unknown name: the registry's one line
            raise GenderMTError(f"--benchmarks: {b} is not in this study (it has "
                                f"{', '.join(have)}); pick another --study or benchmark")
    return names, True


def own_run(study: str, settings: dict[str, Any], name: str | None, benchmarks: str,
            check_languages: Callable[[str, dict, dict], None] | None = None) -> OwnRun:
    """The run's config: the study's, its benchmarks narrowed to the chosen ones, the system
    added to each with the prompts that fit (``check_languages(system, settings, blocks)``:
    the NMT language check, ``nmt_languages.check_benchmarks`` of the translation backends)."""
    config = merged(study_files(study))
    system = system_name(settings, name)
    style = prompt_style(settings)
    if style == "base":
        settings = {**BASE_DEFAULTS, **settings}
    backends.check_system(settings)
    if system in (config.get("systems") or {}):
        raise GenderMTError(f"--name {system}: the study already has a system of that name; "
                            "give another with --name")
    names, named = chosen_benchmarks(config, benchmarks)
    blocks, notes = {}, []
    for b in names:
        spec = config["benchmarks"][b]
        fit, why = fitting_prompts(b, spec, style)
        if not fit:
            if named:
                raise GenderMTError(f"{system} ({style} model) cannot run {b}: {why}; leave "
                                    f"it out of --benchmarks")
            notes.append(f"left out {b}: {why}")
            continue
        spec["systems"] = [*spec.get("systems", []), system]
        if fit != list(spec.get("prompts") or []):
            spec.setdefault("system_prompts", {})[system] = fit
        blocks[b] = spec
    if not blocks:
        raise GenderMTError(f"{system} ({style} model) fits none of the benchmarks "
                            f"{', '.join(names)}: " + "; ".join(n[9:] for n in notes))
    if check_languages is not None:
        check_languages(system, settings, blocks)
    config["benchmarks"] = blocks
    config.setdefault("systems", {})[system] = settings
    run = re.sub(r"[^A-Za-z0-9_.-]", "-", f"{config.get('run') or 'default'}-{system}")[:100]
    config["run"] = run
    return OwnRun(config, run, system, style, notes)


def anchored(node: Any) -> Any:
    """The config with every path into the project's own files (``resources/...``,
    ``src/gendermt/...``) made absolute where this installation has them: the run works from
    any folder (its results in that folder), the workflow and samples from the package."""
    if isinstance(node, dict):
        return {k: anchored(v) for k, v in node.items()}
    if isinstance(node, list):
        return [anchored(v) for v in node]
    if isinstance(node, str) and names_project_file(node):
        return str(project_file(node))
    return node
