"""Filling the placeholders of a user-given path (``{lang}``, ``{benchmark}``, ``{prompt}``).

Not ``str.format``: a path from a config or benchmark file is data, and ``str.format`` would
evaluate attribute and index access in it (``{lang.__class__}``, ``{0}``). Here a placeholder
is a bare name among the allowed ones, without conversion or format spec; anything else is
refused in one line naming it and the allowed ones. ``{{`` and ``}}`` are literal braces.
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Mapping

from gendermt.core.errors import GenderMTError


def _allowed(names: Iterable[str]) -> str:
    return ", ".join(f"{{{n}}}" for n in names) or "none"


def _parts(template: str, allowed: Iterable[str], what: str) -> list[tuple[str, str | None]]:
    """``(literal, placeholder or None)`` pairs of ``template``, each placeholder checked."""
    allowed = tuple(allowed)
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError as exc:
        raise GenderMTError(f"{what}: {template!r} is not a valid path template ({exc}; "
                            f"placeholders allowed: {_allowed(allowed)}; write {{{{ and }}}} "
                            "for a literal brace)") from None
    parts = []
    for literal, field, spec, conversion in parsed:
        if field is None:
            parts.append((literal, None))
            continue
        shown = "{" + field + (f"!{conversion}" if conversion else "") + \
            (f":{spec}" if spec else "") + "}"
        if field not in allowed or spec or conversion:
            raise GenderMTError(f"{what}: placeholder {shown} is not allowed in "
                                f"{template!r} (placeholders allowed: {_allowed(allowed)})")
        parts.append((literal, field))
    return parts


def check(template: str, allowed: Iterable[str], what: str) -> None:
    """Refuse a template with a placeholder other than the bare ``allowed`` names."""
    _parts(str(template), allowed, what)


def placeholders(template: str, allowed: Iterable[str], what: str) -> list[str]:
    """The placeholders ``template`` uses (checked as :func:`check`)."""
    return [field for _, field in _parts(str(template), allowed, what) if field is not None]


def fill(template: str, values: Mapping[str, str], what: str,
         allowed: Iterable[str] | None = None) -> str:
    """``template`` with each placeholder replaced by its value. ``allowed`` (default: the
    keys of ``values``) are the names the template may use; one allowed but without a value
    is an error naming it."""
    out = []
    for literal, field in _parts(str(template), values if allowed is None else allowed,
                                 what):
        out.append(literal)
        if field is not None:
            if field not in values:
                raise GenderMTError(f"{what}: {template!r} needs {{{field}}}, which is not "
                                    "given here")
            out.append(str(values[field]))
    return "".join(out)
