"""GAMBIT's config block: its runs, and what the schema cannot check (run at start-up)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gendermt.core.errors import GenderMTError


def runs(spec: Mapping[str, Any], systems: Mapping[str, Any]) -> list[dict[str, str]]:
    """Every (model, system, lang) GAMBIT runs: `systems` run on every target language under
    their own name; `language_systems` maps a model label to its system per language (an
    NMT system fixed to one pair with `tgt_lang`). Unknown systems or languages are errors."""
    langs = spec["prompts"]
    found = [{"model": s, "system": s, "lang": lang} for s in spec["systems"] for lang in langs]
    for model, per_lang in spec.get("language_systems", {}).items():
        for lang, system in per_lang.items():
            if lang not in langs:
                raise GenderMTError(
                    f"benchmarks.gambit.language_systems.{model} names the language {lang!r}, "
                    f"which is not among the prompts (target languages) {langs}")
            if system not in systems:
                raise GenderMTError(
                    f"benchmarks.gambit.language_systems.{model}.{lang} names {system!r}, "
                    f"which is not defined under `systems:`")
            found.append({"model": model, "system": system, "lang": lang})
    return found


def check_detectors(spec: Mapping[str, Any], systems: Mapping[str, Any]) -> None:
    langs = spec["prompts"]
    detectors = spec["detectors"]
    if spec.get("detector", next(iter(detectors))) not in detectors:
        raise GenderMTError(
            f"benchmarks.gambit.detector is {spec['detector']!r}, which is not among the "
            f"detectors {list(detectors)}")
    for name, detector in detectors.items():
        if "system" in detector and detector["system"] not in systems:
            raise GenderMTError(
                f"benchmarks.gambit.detectors.{name}.system names {detector['system']!r}, "
                f"which is not defined under `systems:`")
        missing = [lang for lang in langs
                   if "lexicons" in detector and lang not in detector["lexicons"]]
        if missing:
            raise GenderMTError(
                f"benchmarks.gambit.detectors.{name} has no lexicon for {missing}: add one "
                f"per target language under `lexicons:`")
    unknown = [lang for lang in spec.get("validation", {}) if lang not in langs]
    if unknown:
        raise GenderMTError(
            f"benchmarks.gambit.validation names {unknown}, which are not among the target "
            f"languages {langs}")


def check_references(spec: Mapping[str, Any]) -> None:
    """The labour and stereotype files, read and validated now rather than in the tables (a
    share of 1.7 would fail only after translation). Files that do not exist are left to the
    rules that read them."""
    references = spec.get("references", {})
    for lang, path in (references.get("labour") or {}).items():
        if Path(path).is_file():
            try:
                _validate("load_labour", path)
            except GenderMTError as exc:
                raise GenderMTError(f"benchmarks.gambit.references.labour.{lang}: {exc}") from None
    path = references.get("stereotype")
    if path and Path(path).is_file():
        try:
            _validate("load_stereotypes", path)
        except GenderMTError as exc:
            raise GenderMTError(f"benchmarks.gambit.references.stereotype: {exc}") from None


def _validate(loader: str, path: str | Path) -> None:
    """``references.<loader>(path)``, skipped when these bytes passed this code before (the loaders
    need pandas, a third of the workflow's start-up; :mod:`gendermt.workflow.startup_cache`)."""
    from gendermt.workflow import startup_cache
    from gendermt.workflow.stage_versions import stage_code

    code = stage_code("gendermt.benchmarks.gambit.references")
    key = startup_cache.content_key(f"valid:{loader}:{code}", Path(path).read_bytes())
    if startup_cache.get(key):
        return
    from gendermt.benchmarks.gambit import references

    getattr(references, loader)(path)
    startup_cache.put(key, True)


def check(spec: Mapping[str, Any], config: Mapping[str, Any]) -> None:
    systems = config.get("systems", {})
    runs(spec, systems)
    check_detectors(spec, systems)
    check_references(spec)


# --- lookups of the workflow's rules (gambit.smk) -------------------------------------------
def detector(spec: Mapping[str, Any], name: str) -> dict[str, Any]:
    """A detector's config block, with its name (a param: changing it reruns detection)."""
    return {"name": name, **spec["detectors"][name]}


def judge_system(spec: Mapping[str, Any], systems: Mapping[str, Any], name: str
                 ) -> dict[str, Any]:
    """The chat system an LLM-judge detector runs on (its settings are a param too)."""
    found = spec["detectors"][name]
    return {found["system"]: systems[found["system"]]} if "system" in found else {}


def detector_files(spec: Mapping[str, Any], name: str, lang: str) -> list[str]:
    """Files a detector reads: the language's lexicon (and its agreement cues, beside it), or
    the judge's prompt templates."""
    from gendermt.benchmarks.gambit.lexicon import cues_path_for

    found = spec["detectors"][name]
    files = [found["templates"]] if "templates" in found else []
    lexicon = found.get("lexicons", {}).get(lang)
    if lexicon:
        files.append(lexicon)
        cues = cues_path_for(lexicon)
        files += [str(cues)] if cues.exists() else []
    return files


def detector_gpus(spec: Mapping[str, Any], systems: Mapping[str, Any], name: str) -> int:
    from gendermt.translation.backends import system_gpus

    found = spec["detectors"][name]
    return system_gpus(systems[found["system"]]) if "system" in found else 0


def labour_files(spec: Mapping[str, Any]) -> dict[str, str]:
    """The labour-statistics file of each target language that has one."""
    labour = spec.get("references", {}).get("labour", {})
    return {lang: path for lang, path in labour.items() if lang in spec.get("prompts", [])}


def assignments(results: str, runs: list[dict[str, str]], name: str) -> list[str]:
    """A detector's assignment files of every run, in the order of ``runs``."""
    return [f"{results}/gambit/assignments/{name}/{r['system']}/{r['lang']}.csv" for r in runs]


def figure_caption(name: str) -> str:
    """The intra-model tables and heatmaps of every language share one caption."""
    return "intra_model" if name.startswith("intra_model_") else name
