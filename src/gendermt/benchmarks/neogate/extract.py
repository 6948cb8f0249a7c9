"""The translation inside an LLM's answer to a Neo-GATE prompt (paper §4.3).

The prompts enclose sentences in angle brackets and label the neomorphemic translation
(``[Italian, neomorpheme]`` in the Binary and Ternary formats), and models are expected to
reproduce that structure. Every output gets one of three statuses, counted and reported:

* ``bracketed``: the text inside the first ``<…>`` after the format's label (or anywhere, for
  formats without a label);
* ``plain``: no angle bracket at all, so the output is taken as the translation itself (what
  systems that do not follow the format, e.g. the reference oracles, produce); the format's
  label, when present, is skipped first. ``accept_plain=False`` makes these unextractable;
* ``unextractable``: empty, a label-requiring format without its label but with other
  structure, or brackets that do not close. Its hypothesis is empty: the item still counts in
  the metrics' denominators (nothing of it matches), never silently dropped.

Line breaks inside an extracted translation become spaces (the official evaluation reads one
output per line).
"""

from __future__ import annotations

import re

STATUSES = ("bracketed", "plain", "unextractable")
_BRACKETED = re.compile(r"<([^<>]*)>")


def _label_pattern(label: str) -> re.Pattern:
    """The label, case-insensitive and tolerant of spacing (``[ Italian ,neomorpheme]``)."""
    words = re.findall(r"\w+|[^\w\s]", label)
    return re.compile(r"\s*".join(re.escape(w) for w in words), re.IGNORECASE)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def extract(raw: str, label: str | None = None, accept_plain: bool = True) -> tuple[str, str]:
    """(translation, status) of one raw output."""
    text = (raw or "").strip()
    if not text:
        return "", "unextractable"
    rest = text
    if label:
        found = _label_pattern(label).search(text)
        if found:
            rest = text[found.end():]
        elif "<" in text or ">" in text:
            return "", "unextractable"
    match = _BRACKETED.search(rest)
    if match and match.group(1).strip():
        return _one_line(match.group(1)), "bracketed"
    if "<" in rest or ">" in rest or not rest.strip() or not accept_plain:
        return "", "unextractable"
    return _one_line(rest), "plain"
