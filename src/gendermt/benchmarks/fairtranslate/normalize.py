"""Inclusive French spellings → one canonical form each (FairTranslate §4.3, datasets.md §1.5).

French inclusive writing has no standard: the same inclusive article, pronoun or occupation
ending is spelt with middle dots, dots, slashes, hyphens, brackets, a capital E or as a
doublet ("il ou elle"). The analyses (indicators, occupation forms, pronouns) compare
outputs with fixed lists, so every output is first rewritten to the canonical forms the
dataset uses:

=============  ==========================================================================
canonical      spellings absorbed (lower case shown; capitalised forms are derived)
=============  ==========================================================================
``iel``        il/elle, elle/il, il.elle, elle.il, il(le), il ou elle, elle ou il, ille,
               ielle, yel, ellui, ul, ael, æl
``iels``       ils/elles, elles/ils, ils.elles, elles.ils, ils ou elles, elles ou ils,
               ils et elles, elles et ils, illes, ielles, yels
``un.e``       un/une, une/un, un.une, une.un, un-une, un ou une, une ou un, unE, un-e,
               un/e, un(e)
``le.a``       lea, lia, li, lae, le.la, la.le, le/la, la/le, le-la, la-le, le-a, le(a),
               le ou la, la ou le (``Li`` is left alone: it is mostly a surname)
``ce.tte``     ce.te, cet.te, ce/cette, cet/cette, cette/ce, cette/cet, ce.cette,
               cet.cette, ce(tte), cet(te), cès, cèx, ce ou cette, cet ou cette,
               cette ou ce, cette ou cet
``ien.ne``     -ien.ienne, -ienE, -ien/ne, -ien-ne, -ien(ne), -ien/ienne
``ier.ère``    -ier.ière, -ierE, -ier/ère, -ier-ère, -ier(ère), -ier/ière
``eur.euse``   -eur.se, -eur/euse, -eur-euse, -eur(euse), -eur/se, -eur(se)
``eur.rice``   -eur.trice, -eur/trice, -eur-trice, -eur(trice), -eur.ice, -eur/rice,
               -eur-rice, -eur(rice)
``eux.euse``   -eux.se, -eux/euse, -eux-euse, -eux(se)
``tre.esse``   -tre.tresse, -tre.sse, -tre/esse, -tre(sse)
``te.esse``    -te.sse, -te/esse, -te(sse)
``.e``         -E, -/e, -(e), -e after a hyphen (avocatE, avocat/e, avocat(e), avocat-e →
               avocat.e); ``.e.s`` for the plurals (-Es, -(e)s, -e-s, -.es)
doublets       full forms joined by ``/``, ``.`` or ``ou`` whose feminine is the masculine
               plus a regular ending (avocat/avocate → avocat.e, infirmier ou infirmière →
               infirmier.ère, un traducteur ou une traductrice → un.e traducteur.rice)
=============  ==========================================================================

Before the rules, the middle dot ``·`` and its look-alikes (``•``, ``‧``, ``⋅``, ``∙``)
become ``.``. Rules are case-sensitive (``Un/Une`` → ``Un.e``, ``un/une`` → ``un.e``).
Whole-word rules need a word start on the left and a word end on the right, and never touch
part of a hyphenated compound (the authors' rules turn "Ille-et-Vilaine" into
"Iel-et-Vilaine"). Ending rules need letters before them and allow a plural ``s``/``.s``
after them. The rules are applied until nothing changes, so normalising twice changes
nothing.

Differences from the authors' ``normalize_text.py`` (facts in datasets.md §1.5), all
deliberate: the ``eur.rice`` family and ``Cet.te`` are covered; slash, hyphen, bracket and
capital-E spellings are covered for every ending, not only a few; ``iels`` and noun doublets
are added; ``Li`` (a frequent surname) is not rewritten. Known limits: a sentence stop
without a following space (``parti.Elle``) looks like a dotted form; "le ou la" used as two
object pronouns ("il le ou la voit") becomes ``le.a``, which is harmless for the analyses.

Where it applies: the inclusive-language analyses (:mod:`.inclusive_tables`) normalise every
hypothesis themselves and keep the text as written beside it. It is deliberately *not* a
translation post-processing step (``gendermt.translation.postprocess.STEPS``), unlike in the
authors'
pipeline: the references are not normalised (neither are they by the authors), so BLEU/COMET
would compare canonical spellings with the references' own (``caissier.ère`` against
``caissier.ière``); and translation jobs would depend on this module, so that every edit of
the dictionary would rerun every translation, GPU jobs included.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

MIDDLE_DOTS = "·•‧⋅∙"
_DOTS = str.maketrans({c: "." for c in MIDDLE_DOTS})

# Lower-case whole-word rules: canonical → spellings it absorbs.
WORD_RULES: dict[str, tuple[str, ...]] = {
    "iels": ("ils/elles", "elles/ils", "ils.elles", "elles.ils", "ils ou elles",
             "elles ou ils", "ils et elles", "elles et ils", "illes", "ielles", "yels"),
    "iel": ("il/elle", "elle/il", "il.elle", "elle.il", "il(le)", "il ou elle", "elle ou il",
            "ille", "ielle", "yel", "ellui", "ul", "ael", "æl"),
    "un.e": ("un/une", "une/un", "un.une", "une.un", "un-une", "un ou une", "une ou un",
             "unE", "un-e", "un/e", "un(e)"),
    "le.a": ("lea", "lia", "li", "lae", "le.la", "la.le", "le/la", "la/le", "le-la", "la-le",
             "le-a", "le(a)", "le ou la", "la ou le"),
    "ce.tte": ("ce.te", "cet.te", "ce/cette", "cet/cette", "cette/ce", "cette/cet",
               "ce.cette", "cet.cette", "ce(tte)", "cet(te)", "cès", "cèx", "ce ou cette",
               "cet ou cette", "cette ou ce", "cette ou cet"),
}
# Proper names that a derived capitalised spelling would hit.
NOT_CAPITALISED = frozenset({"li"})

# Word-final rules: canonical ending → spellings it absorbs.
ENDING_RULES: dict[str, tuple[str, ...]] = {
    "ien.ne": ("ien.ienne", "ienE", "ien/ne", "ien-ne", "ien(ne)", "ien/ienne"),
    "ier.ère": ("ier.ière", "ierE", "ier/ère", "ier-ère", "ier(ère)", "ier/ière"),
    "eur.euse": ("eur.se", "eur/euse", "eur-euse", "eur(euse)", "eur/se", "eur(se)"),
    "eur.rice": ("eur.trice", "eur/trice", "eur-trice", "eur(trice)", "eur.ice",
                 "eur/rice", "eur-rice", "eur(rice)"),
    "eux.euse": ("eux.se", "eux/euse", "eux-euse", "eux(se)"),
    "tre.esse": ("tre.tresse", "tre.sse", "tre/esse", "tre(sse)"),
    "te.esse": ("te.sse", "te/esse", "te(sse)"),
}

_LETTER = r"[^\W\d_]"
_LEFT = r"(?<![\w./-])"  # a word start, not inside a dotted, slashed or hyphenated word
_RIGHT = r"(?![\w/-])(?!\.\w)"  # a word end, not followed by more of the word
_PLURAL = r"(?P<pl>\.?s)?"


def _first_upper(text: str) -> str:
    return text[:1].upper() + text[1:]


def _capitalised(variant: str) -> set[str]:
    """The spellings of a variant at the start of a sentence: ``Il/elle``, ``Il/Elle``."""
    parts = re.split(r"([/.])", variant)
    return {_first_upper(variant), "".join(_first_upper(p) for p in parts)}


def _word_table() -> dict[str, str]:
    table: dict[str, str] = {}
    for target, variants in WORD_RULES.items():
        for variant in variants:
            table[variant] = target
            if variant not in NOT_CAPITALISED:
                for cap in _capitalised(variant):
                    table.setdefault(cap, _first_upper(target))
    return table


def _alternation(spellings: Iterable[str]) -> str:
    # longest first, so that "ils ou elles" wins over "il ou elle"-like prefixes
    return "|".join(re.escape(s) for s in sorted(set(spellings), key=lambda s: (-len(s), s)))


WORD_TABLE = _word_table()
ENDING_TABLE = {v: t for t, vs in ENDING_RULES.items() for v in vs}
_WORD_RE = re.compile(f"{_LEFT}(?P<v>{_alternation(WORD_TABLE)}){_RIGHT}")
_ENDING_RE = re.compile(f"(?<={_LETTER})(?P<v>{_alternation(ENDING_TABLE)}){_PLURAL}{_RIGHT}")

# Masculine → feminine endings of regular doublets, longest first, with the canonical joint.
DOUBLET_ENDINGS: tuple[tuple[str, str, str], ...] = (
    ("teur", "trice", "teur.rice"),
    ("ier", "ière", "ier.ère"),
    ("eur", "euse", "eur.euse"),
    ("eux", "euse", "eux.euse"),
    ("ien", "ienne", "ien.ne"),
    ("on", "onne", "on.ne"),
    ("el", "elle", "el.le"),
    ("et", "ette", "et.te"),
    ("er", "ère", "er.ère"),
    ("if", "ive", "if.ve"),
    ("e", "esse", "e.esse"),
    ("", "e", ".e"),
)
_DETERMINERS = {("un", "une"): "un.e", ("le", "la"): "le.a", ("ce", "cette"): "ce.tte",
                ("cet", "cette"): "ce.tte", ("l'", "l'"): "l'", ("l’", "l’"): "l’"}


def doublet(masculine: str, feminine: str) -> str | None:
    """The canonical inclusive form of a masculine/feminine pair, or None if the pair is not
    a regular one (``infirmier``, ``infirmière`` → ``infirmier.ère``)."""
    if masculine == feminine or not masculine or not feminine:
        return None
    for m_end, f_end, joint in DOUBLET_ENDINGS:
        if masculine.endswith(m_end):
            stem = masculine[:len(masculine) - len(m_end)]
            if stem and feminine == stem + f_end:
                return stem + joint
    return None


_W = rf"{_LETTER}[\w]*"
_DOUBLET_SYMBOL_RE = re.compile(rf"{_LEFT}(?P<a>{_W})[/.](?P<b>{_W}){_RIGHT}")
_DOUBLET_OU_RE = re.compile(
    rf"{_LEFT}(?:(?P<da>[Uu]n|[Ll]e|[Cc]et?|[Ll]['’])\s*)?(?P<a>{_W}) ou "
    rf"(?:(?P<db>une|la|cette|l['’])\s*)?(?P<b>{_W}){_RIGHT}")


def _pair(a: str, b: str) -> str | None:
    """A doublet in either order (``avocate/avocat`` too)."""
    return doublet(a, b) or doublet(b, a)


def _doublet_symbol(match: re.Match) -> str:
    return _pair(match["a"], match["b"]) or match[0]


def _doublet_ou(match: re.Match) -> str:
    form = _pair(match["a"], match["b"])
    da, db = match["da"], match["db"]
    if form is None or (da is None) != (db is None):
        return match[0]
    if da is None:
        return form
    det = _DETERMINERS.get((da.lower(), db.lower()))
    if det is None:
        return match[0]
    det = _first_upper(det) if da[0].isupper() else det
    return det + form if det.endswith(("'", "’")) else f"{det} {form}"


# Epicene "e" spellings, applied last (after the specific endings above).
_E_RULES: tuple[tuple[str, re.Pattern, Callable[[re.Match], str]], ...] = (
    ("(e)→.e", re.compile(rf"(?<={_LETTER})\(e\)(?P<pl>s)?{_RIGHT}"),
     lambda m: ".e" + (".s" if m["pl"] else "")),
    ("-e/→.e", re.compile(rf"(?<={_LETTER})[/-]e(?:[/.-](?P<pl>s))?{_RIGHT}"),
     lambda m: ".e" + (".s" if m["pl"] else "")),
    ("E→.e", re.compile(rf"(?<=[^\W\d_A-ZÀ-ÖØ-Þ])E(?P<pl>[sS])?{_RIGHT}"),
     lambda m: ".e" + (".s" if m["pl"] else "")),
    (".es→.e.s", re.compile(rf"(?<={_LETTER})\.es{_RIGHT}"), lambda m: ".e.s"),
)


MAX_PASSES = 5


def normalize_with_rules(text: str) -> tuple[str, list[str]]:
    """Normalise ``text`` and say which rules changed it (``"il ou elle→iel"``, ...).

    The rules are applied until nothing changes (at most :data:`MAX_PASSES` passes), so that
    normalising twice changes nothing: one pass can uncover a form for another rule ("un ou
    une boulanger ou boulangère": the doublet is only seen once "un ou une" is ``un.e``)."""
    fired: list[str] = []
    out = text
    for _ in range(MAX_PASSES):
        new, rules = _one_pass(out)
        fired += [r for r in rules if r not in fired]
        if new == out:
            break
        out = new
    return out, fired


def _one_pass(text: str) -> tuple[str, list[str]]:
    fired: list[str] = []

    def note(name: str) -> None:
        if name not in fired:
            fired.append(name)

    out = text.translate(_DOTS)
    if out != text:
        note("·→.")

    def word(match: re.Match) -> str:
        target = WORD_TABLE[match["v"]]
        note(f"{match['v']}→{target}")
        return target

    def ending(match: re.Match) -> str:
        target = ENDING_TABLE[match["v"]]
        note(f"-{match['v']}→-{target}")
        return target + (".s" if match["pl"] else "")

    def counted(name: str, func: Callable[[re.Match], str]) -> Callable[[re.Match], str]:
        def apply(match: re.Match) -> str:
            new = func(match)
            if new != match[0]:
                note(name)
            return new
        return apply

    out = _DOUBLET_OU_RE.sub(counted("doublet ou→inclusive", _doublet_ou), out)
    out = _WORD_RE.sub(word, out)
    out = _ENDING_RE.sub(ending, out)
    out = _DOUBLET_SYMBOL_RE.sub(counted("doublet /→inclusive", _doublet_symbol), out)
    for name, pattern, repl in _E_RULES:
        out = pattern.sub(counted(name, repl), out)
    return out, fired


def normalize(text: str) -> str:
    """``text`` with every inclusive spelling in its canonical form (see the module doc)."""
    return normalize_with_rules(text)[0]
