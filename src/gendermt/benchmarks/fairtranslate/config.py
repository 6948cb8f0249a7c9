"""FairTranslate's config block: what the schema cannot check (run at start-up)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gendermt.core.errors import GenderMTError


def clean_outlier(spec: Mapping[str, Any]) -> dict[str, Any]:
    """``clean_outlier`` with its defaults, checked against the block (its systems, and COMET
    among the metrics when it is enabled: the filter keeps rows by their COMET scores)."""
    from gendermt.benchmarks.fairtranslate import outliers

    try:
        settings = outliers.settings_of(spec.get("clean_outlier"), spec["systems"])
    except GenderMTError as exc:
        raise GenderMTError(f"benchmarks.fairtranslate.{exc}") from None
    if settings["enabled"] and "comet" not in spec.get("metrics", []):
        raise GenderMTError(
            "benchmarks.fairtranslate.clean_outlier is enabled but `comet` is not among "
            "the metrics: the filter keeps rows by their COMET scores")
    return settings


def check(spec: Mapping[str, Any], config: Mapping[str, Any]) -> None:
    clean_outlier(spec)
