"""Each system's kind (model, oracle, baseline: gendermt.core.backends.system_kind), which the
scorecard shows apart; no pandas, since the workflow reads it at every start-up."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from gendermt.core.backends import system_kind


def kinds_of(systems: Mapping[str, Mapping[str, Any]] | Sequence[Mapping[str, Any]]
             ) -> dict[str, str]:
    """Each system's kind from the config's ``systems`` (name → settings) or a run summary's
    (report/run.json: records with ``system``)."""
    if isinstance(systems, Mapping):
        return {str(name): system_kind(dict(settings or {}))
                for name, settings in systems.items()}
    return {str(s["system"]): system_kind({k: v for k, v in s.items()
                                           if k in ("backend", "kind")})
            for s in systems}


def kinds_in(results: str | Path) -> dict[str, str]:
    """The systems' kinds a finished results folder records (report/run.json; the
    workflow writes it), empty where it is absent."""
    path = Path(results) / "report" / "run.json"
    if not path.is_file():
        return {}
    return kinds_of(json.loads(path.read_text(encoding="utf-8")).get("systems", []))
