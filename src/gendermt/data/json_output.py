"""What the command line prints as JSON: one format for every command.

Floats are rounded to ``precision`` decimal places (default :data:`PRECISION`; the command
line's ``--precision``), so that ``100.00000000000004`` prints as ``100.0``; a value that is
not a number (NaN, infinity) is ``null``, as JSON has no such numbers.
"""

from __future__ import annotations

import json
import math
import sys
from typing import Any

PRECISION = 10


def rounded(value: Any, precision: int = PRECISION) -> Any:
    """``value`` with every float rounded (recursively through lists and mappings)."""
    if isinstance(value, bool) or value is None or isinstance(value, (str, int)):
        return value
    if isinstance(value, float):
        return round(value, precision) if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: rounded(v, precision) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [rounded(v, precision) for v in value]
    if hasattr(value, "item"):  # numpy scalars
        return rounded(value.item(), precision)
    return value


def print_json(value: Any, precision: int | None = None) -> None:
    """``value`` as indented JSON on stdout, numbers rounded (see the module docstring)."""
    text = json.dumps(rounded(value, PRECISION if precision is None else precision), indent=2,
                      ensure_ascii=False, allow_nan=False)
    sys.stdout.write(text + "\n")
