"""Signatures of the bias metrics, in sacrebleu's manner: one string that says which metric,
which version of its code and which options made a figure, so that two tables can be told
comparable (or not) by their signature alone.

``name:<metric>|version:<version>|<option>:<value>|...``, the options in the order the
metric's module gives them (fixed, so that a signature changes only when a setting does).
Each metric's version sits beside its code (``SIGNATURE_VERSION`` in its ``metric.py``) and is
bumped when its computation changes; its options are every setting that changes its figures.
Values are written as sacrebleu writes them: ``yes``/``no`` for booleans, ``none`` for unset,
lists joined by ``+``, mappings as ``key=value`` joined by ``,``; a ``|`` inside a value
becomes ``/`` (it separates the fields).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

#: The table column that holds a table's metric signature (``<metric>_signature`` where a
#: table has several metrics).
COLUMN = "signature"


def option_text(value: Any) -> str:
    """One option's value as the signature writes it."""
    if value is None:
        text = "none"
    elif isinstance(value, bool):
        text = "yes" if value else "no"
    elif isinstance(value, float):
        text = f"{value:g}"
    elif isinstance(value, Mapping):
        text = ",".join(f"{k}={option_text(v)}" for k, v in sorted(value.items(), key=str)) \
            or "none"
    elif isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value, key=str) if isinstance(value, (set, frozenset)) else value
        text = "+".join(option_text(v) for v in items) or "none"
    else:
        text = str(value)
    return text.replace("|", "/").replace("\n", " ")


def metric_signature(name: str, version: int | str,
                     options: Mapping[str, Any] | Iterable[tuple[str, Any]] = ()) -> str:
    """``name:<name>|version:<version>|<option>:<value>|...``."""
    pairs = options.items() if isinstance(options, Mapping) else options
    return "|".join([f"name:{name}", f"version:{version}",
                     *(f"{key}:{option_text(value)}" for key, value in pairs)])


def extended(signature: str, options: Mapping[str, Any] | Iterable[tuple[str, Any]]) -> str:
    """An existing signature (sacrebleu's, a bias metric's) with the table's own options
    appended, e.g. a filter applied to the rows before the means."""
    pairs = options.items() if isinstance(options, Mapping) else options
    return "|".join([signature, *(f"{key}:{option_text(value)}" for key, value in pairs)])


def parse_signature(signature: str) -> dict[str, str]:
    """``{field: value}`` of a signature (the inverse of :func:`metric_signature` for its
    fields; a field without ``:`` maps to "")."""
    out: dict[str, str] = {}
    for field in str(signature).split("|"):
        key, _, value = field.partition(":")
        out[key] = value
    return out
