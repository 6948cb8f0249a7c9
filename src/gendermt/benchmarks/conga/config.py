"""ConGA's config block: what the schema cannot check (run at start-up)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gendermt.core.errors import GenderMTError

#: The placeholders an annotation file's path may use.
PATH_PLACEHOLDERS = ("system", "prompt")


def check(spec: Mapping[str, Any], config: Mapping[str, Any]) -> None:
    """An LLM annotator names a defined system; annotation paths use only {system} and
    {prompt}."""
    from gendermt.config.placeholders import check as check_template

    for i, entry in enumerate(spec.get("annotations", {}).get("files", [])):
        check_template(entry["path"], PATH_PLACEHOLDERS,
                       f"benchmarks.conga.annotations.files[{i}].path")
    annotator = spec.get("annotations", {}).get("annotator")
    if annotator and annotator["system"] not in config.get("systems", {}):
        raise GenderMTError(
            f"benchmarks.conga.annotations.annotator.system {annotator['system']!r} is not "
            f"defined under `systems:`")


def annotation_files(spec: Mapping[str, Any], system: str, prompt: str) -> list[dict[str, str]]:
    """The configured annotators' files that exist for this system and prompt
    (``{system}`` and ``{prompt}`` substituted in each path)."""
    import os

    from gendermt.config.placeholders import fill

    found = []
    for i, entry in enumerate(spec.get("annotations", {}).get("files", [])):
        path = fill(entry["path"], {"system": system, "prompt": prompt},
                    f"benchmarks.conga.annotations.files[{i}].path")
        if os.path.exists(path):
            found.append({"path": path, "format": entry.get("format", "inline")})
    return found
