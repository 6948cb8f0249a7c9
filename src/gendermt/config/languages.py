"""Which languages a configured benchmark translates from and into (whether a multilingual NMT
model knows them: ``gendermt.translation.backends.nmt_languages.check_benchmarks``).

A benchmark's languages are its contract's ``direction`` (``en→ar/de/es/...``), narrowed to
those its config block names (``data.languages``, or prompts named by their language).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gendermt.core import registry


def _sides(name: str) -> tuple[set[str], set[str]]:
    sources, targets = set(), set()
    for pair in registry.get(name).direction.split(","):
        left, arrow, right = pair.strip().partition("→")
        if arrow:
            sources.update(x.strip() for x in left.split("/") if x.strip())
            targets.update(x.strip() for x in right.split("/") if x.strip())
    return sources, targets


def target_languages(name: str, spec: Mapping[str, Any]) -> list[str]:
    """The ISO 639-1 codes the benchmark's block translates into."""
    _, declared = _sides(name)
    data = spec.get("data") if isinstance(spec.get("data"), Mapping) else {}
    named = {str(x).lower() for x in (data.get("languages") or [])}
    named |= {str(p).lower() for p in spec.get("prompts") or []}
    return sorted(declared & named or declared)


def source_languages(name: str) -> list[str]:
    return sorted(_sides(name)[0])
