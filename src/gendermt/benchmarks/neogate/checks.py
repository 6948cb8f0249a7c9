"""Outputs that are not Italian translations: the prompt's English instruction echoed back,
or an answer in another language (English, mostly). A weak LLM does both (9/12 and 12/12
outputs of one trial run echoed the instruction), and the neomorpheme characters of an
echoed instruction ("use ‘*’ ...") count as mis-generations: so each output is checked,
the counts are reported, and mis-generation is reported both over every output (the
authors' procedure) and over the outputs that passed (``misgeneration_clean``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

CHECKS = ("ok", "echo", "wrong_language")
#: An output whose word trigrams are at least this share found in its prompt's instruction
#: (the prompt without the sentence to translate) is an echo.
ECHO_SHARE = 0.5
_WORD = re.compile(r"\w+", re.UNICODE)
# Frequent function words (no Italian homographs among the English ones, and vice versa).
ENGLISH = frozenset({
    "the", "and", "of", "is", "are", "to", "with", "for", "that", "this", "was", "were", "be",
    "been", "have", "has", "it", "they", "them", "their", "he", "she", "his", "her", "who",
    "which", "what", "an"})
ITALIAN = frozenset({
    "il", "lo", "la", "le", "gli", "di", "del", "della", "dei", "delle", "che", "è", "e", "un",
    "una", "uno", "per", "non", "con", "sono", "ha", "hanno", "nel", "nella", "alla", "al",
    "questo", "questa", "suo", "sua"})


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _trigrams(words: Sequence[str]) -> set[tuple[str, ...]]:
    return {tuple(words[i:i + 3]) for i in range(len(words) - 2)}


def check_output(hypothesis: str, instruction: str = "") -> str:
    """``echo``, ``wrong_language`` or ``ok`` for one extracted output; ``instruction``:
    the text of the prompt it answered, without the source sentence."""
    words = _words(hypothesis)
    grams = _trigrams(words)
    if grams and instruction and \
            len(grams & _trigrams(_words(instruction))) / len(grams) >= ECHO_SHARE:
        return "echo"
    english = sum(w in ENGLISH for w in words)
    italian = sum(w in ITALIAN for w in words)
    if english >= 2 and english > italian:
        return "wrong_language"
    return "ok"


def instruction_of(messages: Sequence[dict], source: str) -> str:
    """The prompt's text without the sentence to translate (an output that repeats the
    English source is a wrong-language output, not an echo of the instruction)."""
    text = "\n".join(str(m.get("content", "")) for m in messages)
    return text.replace(source, " ") if source else text
