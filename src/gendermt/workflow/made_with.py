"""Whether a translation job's outputs were made with its system's current settings and code,
as Snakemake recorded them (the params of the job that wrote them), and what changed.

Why: when a job reruns, Snakemake marks every job below it as running anyway and skips their
own checks (params, code), then drops those whose only links to it are ``ancient()``. The
translation jobs of a commercial MT service read ``paid_work.json`` as ancient (a recount
reruns no translation), and the prompts' jobs of a system that shares one translation of the
sources read that file as ancient (a prompt added reruns no other prompt): a changed
``lang_codes`` reran the count (or the sources' job) and then nothing, keeping the old
outputs (issue 60). Those links are ancient only while the job's outputs were made with its
current settings and code (:meth:`MadeWith.current`); otherwise plain, so that the rerun above
reaches the job, and the protection stop names it and the settings that changed
(:func:`changes`).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable
from typing import Any

#: The params Snakemake recorded for the job that wrote a file (its ``repr``s), None if none.
Recorded = Callable[[str], "list[str] | None"]


def recorded_params(workflow: Any) -> Recorded:
    """Snakemake's record of the params that made a file (``.snakemake/metadata``); None
    where there is none (or no record is open: the workflow is not planning jobs)."""
    from snakemake.io import IOFile

    def params(path: str) -> list[str] | None:
        persistence = getattr(workflow, "persistence", None)
        if persistence is None:
            return None
        try:
            # records before format 6 hold no reliable params (Snakemake ignores them too)
            version = persistence.record_format_version(IOFile(path))
            found = persistence.params(IOFile(path)) if (version or 0) >= 6 else None
        except (OSError, ValueError, KeyError):  # an unreadable record: Snakemake's own say
            return None
        return list(found) if found is not None else None
    return params


class MadeWith:
    """Per translation job (``translate``: {benchmark, system, prompt}; ``translate_sources``:
    {benchmark, system}), whether its outputs were made with the system's current params."""

    def __init__(self, results: str, recorded: Recorded,
                 *current: Callable[[Any], Any]) -> None:
        self.results = results
        self.recorded = recorded
        # the job's params that change its outputs, by wildcards (code, settings)
        self.current = current

    def output_of(self, wildcards: Any) -> str:
        """The job's first output (each of its outputs records the same params)."""
        prompt = getattr(wildcards, "prompt", None)
        if prompt is None:
            return f"{self.results}/{wildcards.benchmark}/sources/{wildcards.system}.jsonl"
        return f"{self.results}/{wildcards.benchmark}/raw/{wildcards.system}/{prompt}.jsonl"

    def made_with_current(self, wildcards: Any) -> bool:
        """False where Snakemake recorded params for the job's output and one of the job's
        current output-changing params is not among them (compared as Snakemake compares
        them: their ``repr``); True where nothing is recorded (nothing to compare)."""
        params = self.recorded(self.output_of(wildcards))
        if params is None:
            return True
        have = set(params)
        return all(repr(value(wildcards)) in have for value in self.current)


def _literal(text: str) -> Any:
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return text


UNSET = "(unset)"


def _shown(value: Any) -> str:
    return UNSET if value is UNSET else repr(value)


def _dict_changes(old: dict, new: dict) -> list[str]:
    return [f"{key} {_shown(old.get(key, UNSET))} → {_shown(new.get(key, UNSET))}"
            for key in sorted(set(old) | set(new), key=str) if old.get(key, UNSET) !=
            new.get(key, UNSET)]


def changes(params: Iterable[tuple[str, Any]], recorded: list[str] | None) -> list[str]:
    """What changed between the params a job's outputs were made with (``recorded``,
    Snakemake's ``repr``s) and its params now (name, value): ``key old → new`` for each
    changed key of a dict param (a system's settings), ``name changed`` for any other;
    [] where nothing is recorded or nothing changed."""
    if recorded is None:
        return []
    params = list(params)
    new = {repr(value) for _, value in params}
    gone = [_literal(text) for text in recorded if text not in new]
    found: list[str] = []
    for name, value in params:
        if repr(value) in recorded:
            continue
        olds = [o for o in gone if isinstance(o, dict)] if isinstance(value, dict) else []
        if olds:  # the recorded dict sharing most keys with this one
            old = max(olds, key=lambda o: len(set(o) & set(value)))
            gone.remove(old)
            found += _dict_changes(old, value)
        else:
            found.append(f"{name} changed")
    return found


def changed_settings(jobs: Iterable[Any], recorded: Recorded) -> list[str]:
    """One line per system and change among ``jobs`` (Snakemake jobs about to run), naming
    where: ``systems.<system>: lang_codes {'de': 'DE'} → {'de': 'IT'} (winomt: de, fr)``;
    a job without a system is named by its rule."""
    where: dict[tuple[str, str], dict[str, set[str]]] = {}
    for job in jobs:
        wildcards = dict(job.wildcards_dict)
        params = [(name, value) for name, value in job.params.items()]
        for change in changes(params, recorded(str(job.output[0])) if job.output else None):
            who = (f"systems.{wildcards['system']}" if "system" in wildcards
                   else f"rule {job.rule.name}")
            found = where.setdefault((who, change), {})
            found.setdefault(wildcards.get("benchmark", ""), set()).update(
                [wildcards["prompt"]] if "prompt" in wildcards else [])
    lines = []
    for (who, change), places in sorted(where.items()):
        shown = "; ".join(f"{b}: {', '.join(sorted(p))}" if p else b
                          for b, p in sorted(places.items()) if b)
        lines.append(f"{who}: {change}" + (f" ({shown})" if shown else ""))
    return lines
