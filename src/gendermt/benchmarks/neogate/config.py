"""Neo-GATE's config block: what the schema cannot check (run at start-up)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gendermt.config.templates import check_placeholders, load_templates
from gendermt.core.errors import GenderMTError

# Neo-GATE renders its own messages (inputs.py `render`): these placeholders, and no others.
PLACEHOLDERS = {"user": {"source", "neomorpheme"}, "instruction": {"neomorpheme"},
                "answer": {"masculine", "feminine", "neomorphemic"}}


def check_templates(spec: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The templates file: every prompt format resolved, each role's placeholders checked."""
    from gendermt.benchmarks.neogate.inputs import resolve_templates

    path = spec["templates"]
    templates = load_templates(path)
    resolved = resolve_templates(path)
    for role, allowed in PLACEHOLDERS.items():
        check_placeholders(resolved, allowed, path, roles=(role,))
    return templates


def check(spec: Mapping[str, Any], config: Mapping[str, Any]) -> None:
    """Its runs (format × shots × paradigm) resolve; paradigm systems are defined systems of
    defined paradigms."""
    from gendermt.benchmarks.neogate.inputs import resolve_templates, study_runs

    try:
        study_runs(spec, resolve_templates(spec["templates"]))
    except GenderMTError as exc:
        raise GenderMTError(f"benchmarks.neogate: {exc}") from None
    paradigms = list(spec.get("paradigms", {}))
    paradigm_systems = spec.get("paradigm_systems", {})
    systems = list(dict.fromkeys(
        spec.get("systems", []) + [s for p in paradigms for s in paradigm_systems.get(p, [])]))
    unknown = [s for s in systems if s not in config.get("systems", {})]
    if unknown:
        raise GenderMTError(f"benchmarks.neogate names undefined systems {unknown}")
    unknown = [p for p in paradigm_systems if p not in paradigms]
    if unknown:
        raise GenderMTError(
            f"benchmarks.neogate.paradigm_systems names paradigms {unknown} that "
            f"benchmarks.neogate.paradigms does not define ({', '.join(paradigms)})")
