"""``add_systems:``: systems added to every benchmark's ``systems:`` list.

Snakemake merges config files key by key, and a list replaces the one before it, so an
overlay that names a benchmark's ``systems:`` drops the default's. ``add_systems: [my-llm]``
(a top-level key) appends instead, to every benchmark the config configures: the one place
that resolves it is :func:`apply`, called by the workflow's start-up right after the schema
check (gendermt.workflow.startup), before anything reads a benchmark's systems.
"""

from __future__ import annotations

from typing import Any

from gendermt.core.errors import GenderMTError


def apply(config: dict[str, Any]) -> dict[str, Any]:
    """Append each of ``config['add_systems']`` to every benchmark's ``systems`` list (once:
    a system already listed keeps its place). Changes ``config`` in place and returns it."""
    added = list(config.get("add_systems") or [])
    defined = config.get("systems") or {}
    for system in added:
        if system not in defined:
            raise GenderMTError(f"add_systems: {system!r} is not a configured system; define "
                                f"it under `systems:` (backend and model) or remove it")
    for spec in (config.get("benchmarks") or {}).values():
        listed = list(spec.get("systems") or [])
        spec["systems"] = listed + [s for s in added if s not in listed]
    return config
