"""Which form of the occupation an output uses (FairTranslate §7, appendix E).

Each row names its occupation's three French forms [masculine, feminine, inclusive]. An
output is *kept* when it contains one of them, and the form found gives its class:

* forms are compared as token sequences (:mod:`.tokens`), in any case, after normalising
  both the output and the forms (:mod:`.normalize`), so ``infirmier·ière`` in an output
  matches ``infirmier.ière`` in the data (both become ``infirmier.ère``), and multi-word
  forms (``femme de ménage``, ``le médecin``, ``hôte de l’air``) match too (the authors'
  single-token matcher never finds them);
* a form shared by several genders (epicene ``journaliste``, ``secrétaire``) is decided by
  the determiner just before it: ``un``/``le``/``ce``/``cet``/``du``/``au`` masculine,
  ``une``/``la``/``cette`` feminine, ``un.e``/``le.a``/``ce.tte`` inclusive; ``l'``, ``les``
  or no determiner leave it undecided;
* when several forms occur: an inclusive one makes the row inclusive; masculine and feminine
  together are a doublet ("l'infirmier ou l'infirmière"), counted as inclusive and flagged;
  otherwise the form found (the authors took the first of masculine, feminine, inclusive).

Rows are *dropped* when no form occurs (the system chose another word, a plural, or another
occupation) or when only undecided epicene forms occur; both counts are reported.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from .normalize import normalize
from .tokens import find_phrase, tokens

FORMS = ("masculine", "feminine", "inclusive")
DETERMINERS = {
    "masculine": {"un", "le", "ce", "cet", "du", "au"},
    "feminine": {"une", "la", "cette"},
    "inclusive": {"un.e", "le.a", "ce.tte"},
}
NOT_FOUND = "occupation not found"
UNDECIDED = "epicene form without a gendered determiner"


@dataclass(frozen=True)
class OccupationForm:
    form: str | None  # masculine, feminine, inclusive; None when the row is dropped
    doublet: bool = False
    dropped: str | None = None  # why, when form is None


def _determiner_gender(words: list[str], start: int) -> str | None:
    if start == 0:
        return None
    before = words[start - 1]
    return next((g for g, dets in DETERMINERS.items() if before in dets), None)


@lru_cache(maxsize=4096)
def _form_tokens(form: str) -> tuple[str, ...]:
    return tuple(tokens(normalize(form)))


def occupation_form(text: str, forms: Sequence[str]) -> OccupationForm:
    """Classify the occupation form in ``text``; ``forms`` = [masculine, feminine, inclusive]."""
    if len(forms) != 3:
        raise ValueError(f"expected three occupation forms, got {list(forms)!r}")
    words = tokens(normalize(text))
    phrases = {gender: _form_tokens(str(form)) for gender, form in zip(FORMS, forms,
                                                                       strict=True)}
    found: set[str] = set()
    seen_any = False
    for phrase in set(phrases.values()):
        genders = {g for g, p in phrases.items() if p == phrase}
        for start in find_phrase(words, list(phrase)):
            seen_any = True
            if len(genders) == 1:
                found |= genders
            else:
                det = _determiner_gender(words, start)
                if det in genders:
                    found.add(det)
    if "inclusive" in found:
        return OccupationForm("inclusive")
    if {"masculine", "feminine"} <= found:
        return OccupationForm("inclusive", doublet=True)
    for gender in ("masculine", "feminine"):
        if gender in found:
            return OccupationForm(gender)
    return OccupationForm(None, dropped=UNDECIDED if seen_any else NOT_FOUND)
