"""``rule-rewriter``: the project's own rule-based English pronoun rewriter, offline.

It is not GATE X-E's rule-based baseline (Appendix B's is Sun et al. 2021, with spaCy and
GPT-2): its word lists were developed on GATE X-E's real pronoun-only pairs, so its figures on
GATE X-E are not a held-out estimate.

Each request's ``source`` is the English text to rewrite (for GATE X-E, the original
translation; see benchmarks/gate_x_e/inputs.py). The output is an answer in the format the
LLM rewriter is asked for — ``Neutral: …``, ``Feminine: …``, ``Masculine: …``, or ``None``
when the text has no gendered pronoun — so that both are read by the same parser.
"""

from __future__ import annotations

from typing import Any, ClassVar

from gendermt.core.errors import GenderMTError
from gendermt.translation.backends.base import Backend, Request
from gendermt.translation.rewriting.english_pronouns import has_gendered_pronoun, rewrite_all

#: This module's backends, as gendermt.core.backends reads them from this file's text
#: (without importing it): name → its class and what is known before a job runs.
ABOUT = {
    "rule-rewriter": {
        "class": "RuleRewriter",
        "style": "rewriter",
        "workload": "files",
        "cli_setting": None,
        "example": ("the project's English pronoun rewriter",
                    "gendermt run --model rule-rewriter: --benchmarks gate-x-e"),
    },
}

GENDER_ORDER = ("neutral", "feminine", "masculine")


def answer(text: str) -> str:
    if not has_gendered_pronoun(text):
        return "None"
    variants = rewrite_all(text)
    return "\n".join(f"{g.capitalize()}: {variants[g]}" for g in GENDER_ORDER)


class RuleRewriter(Backend):
    """Neutral rewrite by rules (he/she→they with verb agreement, his/her→their/theirs/them,
    him→them, hers→theirs, himself/herself→themselves); gendered rewrites from the original
    and the neutral one (GATE X-E, Appendix B.2). English only, pronouns only."""

    name: ClassVar[str] = "rule-rewriter"
    reads_data: ClassVar[bool] = False
    default_kind: ClassVar[str] = "baseline"
    default_batch_size: ClassVar[int] = 256
    #: ``language``: the language of the text it rewrites; only English is implemented.
    settings_keys: ClassVar[frozenset[str]] = frozenset({"language"})
    # Reads only the source and answers instantly: no prompt in its key, nothing to cache.
    prompted: ClassVar[bool] = False
    cacheable: ClassVar[bool] = False

    @classmethod
    def check_settings(cls, settings: dict[str, Any]) -> None:
        super().check_settings(settings)
        if settings.get("language", "en") != "en":
            raise GenderMTError("rule-rewriter rewrites English only (language: en), not "
                                f"{settings['language']!r}")

    def translate(self, batch: list[Request]) -> list[str]:
        return [answer(r.source) for r in batch]
