"""ConGA's config block: what the schema cannot check (run at start-up)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gendermt.config.errors import GenderMTError


def check(spec: Mapping[str, Any], config: Mapping[str, Any]) -> None:
    """An LLM annotator names a defined system."""
    annotator = spec.get("annotations", {}).get("annotator")
    if annotator and annotator["system"] not in config.get("systems", {}):
        raise GenderMTError(
            f"benchmarks.conga.annotations.annotator.system {annotator['system']!r} is not "
            f"defined under `systems:`")


def annotation_files(spec: Mapping[str, Any], system: str, prompt: str) -> list[dict[str, str]]:
    """The configured annotators' files that exist for this system and prompt
    (``{system}`` and ``{prompt}`` substituted in each path)."""
    import os

    found = []
    for entry in spec.get("annotations", {}).get("files", []):
        path = entry["path"].format(system=system, prompt=prompt)
        if os.path.exists(path):
            found.append({"path": path, "format": entry.get("format", "inline")})
    return found
