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
  joined as a doublet — one after the other with ``ou`` or ``/`` between them, a determiner
  allowed ("l'homme de ménage ou la femme de ménage") — are counted as inclusive and
  flagged; masculine and feminine forms *not* so joined name two referents ("Une infirmière
  et un infirmier arrivent."), and the row is dropped, as it does not say which is the
  person's; otherwise the form found (the authors took the first of masculine, feminine,
  inclusive).

Rows are *dropped* when no form occurs (the system chose another word, a plural, or another
occupation), when only undecided epicene forms occur, or when the two gendered forms name
two referents; each count is reported.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from gendermt.benchmarks.fairtranslate.normalize import normalize
from gendermt.benchmarks.fairtranslate.tokens import find_phrase, tokens

FORMS = ("masculine", "feminine", "inclusive")
DETERMINERS = {
    "masculine": {"un", "le", "ce", "cet", "du", "au"},
    "feminine": {"une", "la", "cette"},
    "inclusive": {"un.e", "le.a", "ce.tte"},
}
NOT_FOUND = "occupation not found"
UNDECIDED = "epicene form without a gendered determiner"
TWO_REFERENTS = "masculine and feminine forms for two referents"
# What may stand between the two halves of a doublet ("X ou Y", "X / Y", "X ou la Y").
DOUBLET_JOINERS = frozenset({"ou", "/"})
DOUBLET_DETERMINERS = frozenset({"l'", "le", "la", "un", "une", "ce", "cet", "cette"})


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


def _joined(words: list[str], first: list[tuple[int, int]],
            second: list[tuple[int, int]]) -> bool:
    """Whether a masculine and a feminine occurrence form a doublet ("X ou [det] Y")."""
    for a in first:
        for b in second:
            left, right = sorted((a, b))
            between = words[left[1]:right[0]]
            if (between and between[0] in DOUBLET_JOINERS
                    and all(w in DOUBLET_DETERMINERS for w in between[1:])
                    and len(between) <= 2):
                return True
    return False


def occupation_form(text: str, forms: Sequence[str]) -> OccupationForm:
    """Classify the occupation form in ``text``; ``forms`` = [masculine, feminine, inclusive]."""
    if len(forms) != 3:
        raise ValueError(f"expected three occupation forms, got {list(forms)!r}")
    words = tokens(normalize(text))
    phrases = {gender: _form_tokens(str(form)) for gender, form in zip(FORMS, forms,
                                                                       strict=True)}
    found: set[str] = set()
    spans: dict[str, list[tuple[int, int]]] = {"masculine": [], "feminine": []}
    seen_any = False
    for phrase in set(phrases.values()):
        genders = {g for g, p in phrases.items() if p == phrase}
        for start in find_phrase(words, list(phrase)):
            seen_any = True
            if len(genders) == 1:
                gender = next(iter(genders))
            else:
                gender = _determiner_gender(words, start)
                if gender not in genders:
                    continue
            found.add(gender)
            if gender in spans:
                spans[gender].append((start, start + len(phrase)))
    if "inclusive" in found:
        return OccupationForm("inclusive")
    if {"masculine", "feminine"} <= found:
        if _joined(words, spans["masculine"], spans["feminine"]):
            return OccupationForm("inclusive", doublet=True)
        return OccupationForm(None, dropped=TWO_REFERENTS)
    for gender in ("masculine", "feminine"):
        if gender in found:
            return OccupationForm(gender)
    return OccupationForm(None, dropped=UNDECIDED if seen_any else NOT_FOUND)
