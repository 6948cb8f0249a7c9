"""Turning a system's raw output into the hypothesis that is scored.

Steps are named in config (per benchmark) so that they are recorded and rerun on change.
The raw output is always kept beside the hypothesis.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from gendermt.core.errors import GenderMTError

_QUOTES = [('"', '"'), ("'", "'"), ("«", "»"), ("“", "”"), ("‘", "’")]


def strip_quotes(text: str) -> str:
    """Remove one pair of quotes wrapping the whole text (LLMs echo the prompt's quoting)."""
    text = text.strip()
    for left, right in _QUOTES:
        if len(text) >= 2 and text.startswith(left) and text.endswith(right):
            return text[len(left):-len(right)].strip()
    return text


def first_line(text: str) -> str:
    """Keep the first non-empty line (drops LLM chatter after the translation)."""
    for line in text.strip().splitlines():
        if line.strip():
            return line.strip()
    return ""


def strip_brackets(text: str) -> str:
    """Remove one pair of angle brackets wrapping the whole text (Neo-GATE's FLORES prompt,
    its Table 10, wraps every sentence in ``<…>`` and models answer in kind)."""
    text = text.strip()
    if len(text) >= 2 and text.startswith("<") and text.endswith(">"):
        return text[1:-1].strip()
    return text


def authors(text: str) -> str:
    """The FairTranslate authors' cleaning (``run_translations.py``): remove every ``"``, then
    keep the first line, as ``split("\\n")[0]`` gives it: an output that opens with a line
    break gives ``""``, and single quotes, ``« »`` and surrounding spaces stay."""
    return text.replace('"', "").split("\n")[0]


STEPS: dict[str, Callable[[str], str]] = {
    "strip": str.strip, "strip_quotes": strip_quotes, "first_line": first_line,
    "strip_brackets": strip_brackets, "authors": authors,
}
# The project's cleaning of LLM outputs (the default configs'), and the FairTranslate
# authors' (config/study/fairtranslate.yaml): FairTranslate's postprocess_modes table
# compares the two on the same raw outputs.
PROJECT_STEPS: tuple[str, ...] = ("first_line", "strip_quotes")
AUTHORS_STEPS: tuple[str, ...] = ("authors",)


def pipeline(steps: Sequence[str]) -> Callable[[str], str]:
    """The steps, applied in order, as one function (unknown names are an error)."""
    unknown = [s for s in steps if s not in STEPS]
    if unknown:
        raise GenderMTError(f"unknown post-processing step(s) {unknown}; known: {sorted(STEPS)}")
    funcs = [STEPS[s] for s in steps]

    def apply(text: str) -> str:
        for func in funcs:
            text = func(text)
        return text
    return apply
