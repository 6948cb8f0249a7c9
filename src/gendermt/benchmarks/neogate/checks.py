"""Outputs that are not Italian translations: the prompt's English instruction echoed back,
or an answer in another language (English, mostly). A weak LLM does both (9/12 and 12/12
outputs of one trial run echoed the instruction), and the neomorpheme characters of an
echoed instruction ("use ‘*’ ...") count as mis-generations: so each output is checked,
the counts are reported, and mis-generation is reported both over every output (the
authors' procedure) and over the outputs that passed (``misgeneration_clean``).

The checks are every benchmark's (:mod:`gendermt.scoring.output_checks`), with Italian as the
target.
"""

from __future__ import annotations

from gendermt.scoring.output_checks import CHECKS, ECHO_SHARE, FUNCTION_WORDS, instruction_of
from gendermt.scoring.output_checks import check_output as _check_output

__all__ = ["CHECKS", "ECHO_SHARE", "ENGLISH", "ITALIAN", "check_output", "instruction_of"]

ENGLISH = FUNCTION_WORDS["en"]
ITALIAN = FUNCTION_WORDS["it"]


def check_output(hypothesis: str, instruction: str = "") -> str:
    """``echo``, ``wrong_language`` or ``ok`` for one extracted output; ``instruction``:
    the text of the prompt it answered, without the source sentence."""
    return _check_output(hypothesis, instruction, "it", "en")
