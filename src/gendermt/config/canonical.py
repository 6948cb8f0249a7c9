"""Settings in one canonical form, for a job's ``params``: Snakemake compares params by
``repr``, so that the order of a YAML block's keys, or ``0`` against ``0.0``, would count as
a change and rerun the job."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any


def canonical(value: Any) -> Any:
    """``value`` with every mapping's keys sorted (recursively), tuples as lists, and each
    whole-number float as an int (``1.0`` → ``1``; booleans, NaN and infinities kept)."""
    if isinstance(value, Mapping):
        return {str(k): canonical(value[k]) for k in sorted(value, key=str)}
    if isinstance(value, list | tuple):
        return [canonical(v) for v in value]
    if isinstance(value, float) and math.isfinite(value) and value.is_integer() \
            and abs(value) < 2 ** 53:
        return int(value)
    return value
