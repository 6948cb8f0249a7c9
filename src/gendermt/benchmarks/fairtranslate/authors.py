"""FairTranslate's analyses exactly as the authors' code computes them (the ``authors`` mode).

Read from ``normalize_text.py`` (``non_binary_standardization``) and the notebook
``Analysis_inclusive_gender.ipynb`` of github.com/fanny-jourdan/FairTranslate (datasets.md
§1.3–1.5); reimplemented here, quirks included, so that the paper's §7/§8 figures can be
recomputed like for like. The project's own rules (:mod:`.normalize`, :mod:`.indicators`,
:mod:`.occupations`, :mod:`.pronouns`) are the ``corrected`` mode; the tables report both.

**Normaliser** (:func:`non_binary_standardization`, applied by the authors to every MT output
right after translation, never to the references): ``·`` and ``•`` become ``.``; then, in
the order of :data:`RULES`, each rule replaces its spellings (tried left to right, first
alternative wins) by the canonical form. Whole-word rules need a word boundary or the text
start on the left; every rule needs, on the right, a word boundary, one of ``, . ! ? ; :``,
whitespace or the text end. Case-sensitive. Known effects kept: ``Lea``/``lea`` become
``Le.a``/``le.a`` (so the notebook's indicator ``Lea`` is never seen after it); ``Li``/``li``
(names) become ``Le.a``/``le.a``; ``Ille-et-Vilaine`` becomes ``Iel-et-Vilaine``; ``ier.ière``
becomes ``ier.ère`` (so a data form ``infirmier.ière`` no longer matches the output).

**Tokens** (:func:`custom_tokenizer`): the notebook's regex, alternatives in order
``\\b\\w+\\.\\w+`` | one sign | ``\\w+'`` | ``'\\w+`` | ``\\w+``; case kept. ``infirmier.ière``
is one token; ``tou.te.s`` is ``tou.te`` + ``.`` + ``s``; ``l’infirmier`` (typographic
apostrophe) is ``l`` + ``’`` + ``infirmier``.

**Occupation form** (:func:`determine_gender`, §7 / App. E): if any of the row's three forms
[masculine, feminine, inclusive] is a token of the output: when the masculine and feminine
forms differ, the masculine form is checked first, then the feminine, then the inclusive
(so a doublet "infirmier ou infirmière" is masculine); when they are equal (epicene
``secrétaire``), the first determiner found anywhere in the output, trying the sets
Un/Une/Un.e, Le/La/Lea, Ce/Cette/Ce.tte, Cet/Cette/Ce.tte and then the same in lower case,
each set masculine → feminine → inclusive; none → ``n/a``. No form as a token → ``n/a``,
so multi-word forms (``femme de ménage``, ``le médecin``, ``hôte de l’air``) are always
``n/a``. Counts are over the rows that are not ``n/a``.

**Inclusive indicator** (:func:`is_inclusive_indic`, Table 4): a token among ``Iel iel Lea
lea Un.e un.e Ce.tte ce.tte``, or one of the endings ``ien.ne ier.ère eur.euse eur.e
eux.euse tre.esse te.esse eur.rice`` anywhere in the text (a substring: ``professeur.euse``
and ``heure.euse`` alike).

**Singular "they"** (:func:`pronouns_present`, §8.2 / App. F): the rows are inclusive, not
``ambiguous``, with ``\\b[Tt]hey\\b`` in the English; each pronoun's share is the share of
rows whose output *contains* it (``\\b[Ii]l\\b``, ``\\b[Ee]lle\\b``, ``\\b[Ii]ls\\b``,
``\\b[Ee]lles\\b``, ``\\b[Ii]el\\b``, anywhere, subject or not, impersonal *il* included), so
one row can count under several pronouns and the shares can add up to more than 100%;
"No pronoun" is the share of rows with none of them. ``iels`` is not looked for.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# --------------------------------------------------------------------------- normaliser
# (canonical form, its spellings in the authors' order, whole word?)
RULES: tuple[tuple[str, tuple[str, ...], bool], ...] = (
    ("Un.e", ("Un/Une", "Un/une", "Une/Un", "Une/un", "Un.Une", "Un.une", "Une.Un", "Une.un",
              "UnE", "Un-e", "Un ou une", "Une ou un"), True),
    ("un.e", ("un/une", "une/un", "un.une", "une.un", "unE", "un-e", "un ou une",
              "une ou un"), True),
    ("Le.a", ("Lea", "Lia", "Li", "Lae", "Le.la", "Le/La", "Le/la", "La.le", "La/le", "La.Le",
              "La/Le", "Le-a", "Le ou la", "La ou le"), True),
    ("le.a", ("lea", "lia", "li", "lae", "le.la", "le/la", "la.le", "la/le", "le-a",
              "le ou la", "la ou le"), True),
    ("Iel", ("Ille", "Yel", "Ielle", "Ellui", "Il/Elle", "Il/elle", "Il.Elle", "Il.elle",
             "Elle/Il", "Elle/il", "Elle.Il", "Elle.il", "Il ou elle", "Elle ou il"), True),
    ("iel", ("ille", "yel", "ielle", "ellui", "il/elle", "il.elle", "elle/il", "elle.il",
             "il ou elle", "elle ou il"), True),
    ("Ce.tte", ("Ce.te", "Cès", "Cèx", "Ce ou cette", "Cette ou ce", "Cette ou cet"), True),
    ("ce.tte", ("ce.te", "cès", "cèx", "ce ou cette", "cette ou ce", "cette ou cet"), True),
    ("ien.ne", ("ien.ienne", "ienE"), False),
    ("ier.ère", ("ier.ière", "ierE"), False),
    ("eur.euse", ("eur.se",), False),
    ("eur.e", ("eurE",), False),
    ("eux.euse", ("eux.se",), False),
    ("tre.esse", ("tre.tresse", "tre.sse"), False),
    ("te.esse", ("te.sse",), False),
)
_RIGHT = r"(?=\b|[,.!?;:\s]|$)"
_COMPILED = tuple(
    (re.compile((r"\b" if whole else "") + "(?:"
                + "|".join(re.escape(v) for v in variants) + ")" + _RIGHT), target)
    for target, variants, whole in RULES)


def non_binary_standardization(text: str) -> str:
    """The authors' normalisation of an MT output (``normalize_text.py``; module doc)."""
    text = text.replace("·", ".").replace("•", ".")
    for pattern, target in _COMPILED:
        text = pattern.sub(target, text)
    return text


# --------------------------------------------------------------------------- classifiers
_TOKEN = re.compile(r"\b\w+\.\w+|[^\w\s]|\w+'|'\w+|\w+")
GENDER_INDICATORS: tuple[tuple[str, str, str], ...] = (
    ("Un", "Une", "Un.e"), ("Le", "La", "Lea"), ("Ce", "Cette", "Ce.tte"),
    ("Cet", "Cette", "Ce.tte"), ("un", "une", "un.e"), ("le", "la", "lea"),
    ("ce", "cette", "ce.tte"), ("cet", "cette", "ce.tte"))
GENDERS = ("male", "female", "inclusive")
NOT_AVAILABLE = "n/a"
INCLUSIVE_INDICATORS = ("Iel", "iel", "Lea", "lea", "Un.e", "un.e", "Ce.tte", "ce.tte")
INCLUSIVE_FORMS = ("ien.ne", "ier.ère", "eur.euse", "eur.e", "eux.euse", "tre.esse",
                   "te.esse", "eur.rice")
PRONOUN_PATTERNS = {"il": re.compile(r"\b[Ii]l\b"), "elle": re.compile(r"\b[Ee]lle\b"),
                    "ils": re.compile(r"\b[Ii]ls\b"), "elles": re.compile(r"\b[Ee]lles\b"),
                    "iel": re.compile(r"\b[Ii]el\b")}
_THEY = re.compile(r"\b[Tt]hey\b")


def custom_tokenizer(text: str) -> list[str]:
    """The notebook's tokens (module doc)."""
    return _TOKEN.findall(text)


def determine_gender(text: str, occupation: Sequence[str]) -> str:
    """``male``, ``female``, ``inclusive`` or ``n/a`` for the occupation form in ``text``
    (the notebook's ``determine_gender``; ``occupation`` = [masculine, feminine, inclusive])."""
    forms = [str(f) for f in occupation]
    if len(forms) != 3:
        raise ValueError(f"expected three occupation forms, got {forms!r}")
    words = custom_tokenizer(text)
    if not any(form in words for form in forms):
        return NOT_AVAILABLE
    if forms[0] != forms[1]:
        return next(g for g, form in zip(GENDERS, forms, strict=True) if form in words)
    for indicator_set in GENDER_INDICATORS:
        for gender, word in zip(GENDERS, indicator_set, strict=True):
            if word in words:
                return gender
    return NOT_AVAILABLE


def is_inclusive_indic(text: str) -> bool:
    """Whether ``text`` has one of the notebook's inclusive indicators (Table 4)."""
    words = custom_tokenizer(text)
    return (any(w in words for w in INCLUSIVE_INDICATORS)
            or any(form in text for form in INCLUSIVE_FORMS))


def has_they(english: str) -> bool:
    """The notebook's test for the singular-"they" rows: ``\\b[Tt]hey\\b``."""
    return _THEY.search(english) is not None


def pronouns_present(text: str) -> tuple[str, ...]:
    """The pronouns of :data:`PRONOUN_PATTERNS` that ``text`` contains (any number)."""
    return tuple(p for p, pattern in PRONOUN_PATTERNS.items() if pattern.search(text or ""))
