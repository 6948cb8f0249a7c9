"""Reading a rewriter's answer: the three variants, "None", or nothing usable.

The prompt (src/gendermt/benchmarks/gate_x_e/prompts/rewrite.yaml) asks for the last lines
``Neutral: …``,
``Feminine: …``, ``Masculine: …``, or ``Answer: None``. Models wrap these in Markdown, number
them, call them "neutral variant" or "Female translation", quote them, repeat them in their
reasoning, or stop early; the parser takes the *last* occurrence of each label, so the worked
steps before the answer never win, and reports what it could not find instead of guessing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

GENDER_WORDS = {
    "neutral": "neutral|gender[- ]neutral|non[- ]binary|all[- ]neutral",
    "feminine": "feminine|female|all[- ]feminine|all[- ]female",
    "masculine": "masculine|male|all[- ]masculine|all[- ]male",
}
_DECOR = r"[\s>*_#`|\-•]*(?:\d+[.)]\s*)?[*_]*"
_LABEL = {
    gender: re.compile(
        rf"^{_DECOR}(?:{words})(?:\s+(?:variant|version|translation|rewrite|form))?"
        r"[*_]*\s*(?:\([^)]*\))?\s*[:：=\-–]+[*_]*\s*(?P<text>.*)$", re.I)
    for gender, words in GENDER_WORDS.items()
}
_NONE = re.compile(rf"^{_DECOR}(?:(?:final\s+)?answer[*_]*\s*[:：][*_]*\s*)?[*_\"'`]*none"
                   r"[*_\"'`.]*\s*$", re.I)
_QUOTES = "\"'“”‘’`"


@dataclass
class Answer:
    """What a rewriter answered: ``none`` (nothing to rewrite), the variants it gave, and
    the genders it did not give (``missing``)."""

    none: bool = False
    variants: dict[str, str] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)

    def rewrite(self, gender: str, original: str) -> str:
        """The rewrite of ``gender``: the original for "None" (as the paper treats it), an
        empty string (a certain mismatch) where the answer lacks it."""
        if self.none:
            return original
        return self.variants.get(gender, "")


def _clean(text: str) -> str:
    text = re.sub(r"^[*_`]+|[*_`]+$", "", text.strip()).strip()
    if len(text) >= 2 and text[0] in _QUOTES and text[-1] in _QUOTES:
        text = text[1:-1].strip()
    return text


def parse_answer(raw: str) -> Answer:
    """The variants of a raw answer (see the module's docstring)."""
    lines = (raw or "").replace("\r\n", "\n").split("\n")
    found: dict[str, tuple[int, str]] = {}
    last_none = -1
    for number, line in enumerate(lines):
        if _NONE.match(line):
            last_none = number
            continue
        for gender, pattern in _LABEL.items():
            match = pattern.match(line)
            if match:
                text = _clean(match["text"])
                if not text and number + 1 < len(lines):  # label on its own line
                    text = _clean(lines[number + 1])
                if text:
                    found[gender] = (number, text)
                break
    latest = max((n for n, _ in found.values()), default=-1)
    if last_none > latest or (not found and (raw or "").strip().strip(".").lower() == "none"):
        return Answer(none=True)
    variants = {g: text for g, (_, text) in found.items()}
    if any(v.strip().strip(".").lower() == "none" for v in variants.values()) and all(
            v.strip().strip(".").lower() == "none" for v in variants.values()):
        return Answer(none=True)
    return Answer(variants=variants,
                  missing=[g for g in ("neutral", "feminine", "masculine") if g not in found])


#: How an answer was read, per request (the answer-status table): ``complete`` (all three
#: variants), ``none`` (nothing to rewrite), ``incomplete`` (some variants, not all),
#: ``cut off`` (incomplete or unparsed, and generation stopped at the token budget),
#: ``refused`` (a refusal, no variant), ``unparsed`` (no variant and no "None"), ``empty``.
ANSWER_STATUSES = ("complete", "none", "incomplete", "cut off", "refused", "unparsed", "empty")
_REFUSAL = re.compile(r"\b(I can(?:no|')t|I cannot|I'm sorry|I am sorry|I apologi[sz]e|"
                      r"as an AI|I'm unable|I am unable|I won't)\b", re.IGNORECASE)


def answer_status(raw: str, answer: Answer | None = None, finish_reason: str | None = None
                  ) -> str:
    """One of :data:`ANSWER_STATUSES` for a raw answer."""
    if not (raw or "").strip():
        return "empty"
    answer = answer or parse_answer(raw)
    if answer.none:
        return "none"
    if not answer.missing:
        return "complete"
    if finish_reason == "length":
        return "cut off"
    if answer.variants:
        return "incomplete"
    return "refused" if _REFUSAL.search(raw) else "unparsed"
