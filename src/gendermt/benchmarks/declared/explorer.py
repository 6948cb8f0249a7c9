"""A declared benchmark's explorer (gendermt.report.explorer): scored by MT-GenEval's
gendered-word rule, it reads as MT-GenEval's does (each segment, every system's output, the
words of the segment's own gender and of the other's found in it)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gendermt.benchmarks.mt_geneval.explorer import gendered_word_explorer
from gendermt.report.explorer import Explorer


def read(runs: Sequence[Mapping[str, Any]], data: str, label: str,
         systems: Sequence[str] | None = None) -> Explorer:
    """``runs``: ``{system, prompt, path}`` records of ``items/<system>/<prompt>.parquet``."""
    return gendered_word_explorer(label, runs, data, systems)
