"""How a French translation renders English singular "they" (FairTranslate §8.2, appendix F).

Classes (the paper's four): ``plural`` (ils, elles, iels: "they" read as plural),
``singular-gendered`` (il, elle: singular, but gendered), ``inclusive`` (iel) and
``no-pronoun`` (the sentence avoids a subject pronoun, a valid inclusive strategy).

The rule, on the normalised French (:mod:`.normalize`, so "il ou elle" and "il/elle" are
``iel`` and "ils/elles" is ``iels``) split into tokens (:mod:`.tokens`):

1. Subject pronouns are the tokens il, elle, ils, elles, iel, iels, in any case, alone or
   after an elided conjunction (qu'il, s'il, lorsqu'iel, puisqu'elles) or inverted after a
   hyphen (a-t-il, pensent-elles). A pronoun after a preposition (avec elle, pour elles,
   chez elle, à elle, d'elle) is a stressed object pronoun, not a subject, and is skipped.
2. Impersonal *il* is skipped: il y a, il faut, il pleut, il s'agit, il se peut que, il
   semble que, il suffit de, il reste du..., il vaut mieux, il fait beau, il est temps,
   il est tard, il est important/nécessaire/possible..., il a fallu, faut-il, y a-t-il
   (:data:`IMPERSONAL_ALWAYS`, :data:`IMPERSONAL_BEFORE`, :data:`IMPERSONAL_ADJECTIVES`);
   "il semble fatigué", "il reste calme", "il arrive en retard" stay personal.
3. English he and she are rendered by il/elle: that many il/elle are set aside as theirs.
   A subject *it* (followed by a verb or auxiliary) sets one aside only when the French has
   no other rendering of it left: French renders "it" mostly by ce/c'/cela/ça or by an
   impersonal il (already skipped), so each of those accounts for one "it" first ("They
   said it was easy." → "Il a dit que c'était facile.": the il is the person's).
4. An empty output, or one that is the English source again, is ``untranslated``: its own
   class, not "no pronoun" (which is an inclusive strategy). So is an output that echoes
   the prompt's instruction (gendermt.scoring.output_checks; the stage passes each output's check):
   ``echo``, counted apart too, since an echoed instruction has no subject pronoun either.
5. Otherwise the class is the first that applies: ``inclusive`` if any iel;
   ``singular-gendered`` if any il/elle is left; ``plural`` if any ils/elles/iels; else
   ``no-pronoun``. A singular pronoun wins over a plural one because a plural in the same
   output usually refers to another group ("les clients ... ils") while the person got the
   singular.

Known limits (no parser, no alignment): a plural pronoun that refers to another group, in an
output that renders the person's "they" without a pronoun, counts as ``plural``; il/elle
referring to a thing that the English names with a noun, not "it", counts as
``singular-gendered``; an English "it" rendered by ce/cela sets aside one il/elle too many;
object pronouns (le, la, les, lui, leur) are not looked at, as the paper looks at subjects.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gendermt.benchmarks.fairtranslate.normalize import normalize
from gendermt.benchmarks.fairtranslate.tokens import tokens

CLASSES = ("plural", "singular-gendered", "inclusive", "no-pronoun", "untranslated", "echo")
PRONOUN_CLASS = {"ils": "plural", "elles": "plural", "iels": "plural",
                 "il": "singular-gendered", "elle": "singular-gendered", "iel": "inclusive"}
# Pronouns in the order they are reported within a class (the figures' stacking order).
PRONOUNS = ("ils", "elles", "iels", "il", "elle", "iel")
NO_PRONOUN = "none"
UNTRANSLATED = "untranslated"  # an empty output or a copy of the English
ECHO = "echo"  # an output that echoes the prompt's instruction (gendermt.scoring.output_checks)
# French subjects that render an English "it" besides il/elle.
IT_RENDERINGS = frozenset({"c'", "cela", "ça", "ceci"})

PREPOSITIONS = frozenset({
    "à", "de", "d'", "avec", "pour", "chez", "sans", "par", "sur", "sous", "vers", "contre",
    "entre", "envers", "derrière", "devant", "après", "avant", "selon", "malgré", "près",
    "auprès", "parmi", "sauf", "pendant", "dès", "depuis"})
# What follows an impersonal "il" (il y a, il faut, il s'agit, il semble que...). Verbs that
# are also personal (il semble fatigué, il reste calme, il arrive en retard) count as
# impersonal only before the word that makes them so.
IMPERSONAL_ALWAYS = frozenset({"y", "faut", "fallait", "faudra", "faudrait", "fallut",
                               "pleut", "pleuvait", "pleuvra", "neige", "neigeait"})
IMPERSONAL_BEFORE = {
    **dict.fromkeys(("semble", "semblait", "paraît", "paraissait", "arrive", "arrivait"),
                    frozenset({"que", "qu'"})),
    **dict.fromkeys(("suffit", "suffisait", "convient", "convenait", "importe", "importait"),
                    frozenset({"que", "qu'", "de", "d'"})),
    **dict.fromkeys(("reste", "restait", "restera", "manque", "manquait", "existe",
                     "existait"),
                    frozenset({"un", "une", "des", "du", "de", "d'", "encore", "plusieurs",
                               "quelques", "peu", "beaucoup", "trop", "assez", "deux",
                               "trois", "plus"})),
    **dict.fromkeys(("vaut", "valait", "vaudrait", "vaudra"), frozenset({"mieux"})),
    **dict.fromkeys(("fait", "faisait", "fera"),
                    frozenset({"beau", "froid", "chaud", "nuit", "jour", "noir", "doux",
                               "frais", "mauvais", "gris", "soleil"})),
}
IMPERSONAL_REFLEXIVE = frozenset({"agit", "agissait", "agira", "avère", "avérait"})
IMPERSONAL_ADJECTIVES = frozenset({
    "temps", "tard", "tôt", "midi", "minuit", "important", "nécessaire", "possible",
    "impossible", "difficile", "facile", "clair", "évident", "probable", "improbable", "rare",
    "fréquent", "normal", "dommage", "essentiel", "utile", "inutile", "interdit", "urgent",
    "préférable", "indispensable", "vrai", "juste", "question", "habituel", "courant",
    # participles of impersonal verbs: il a fallu, il a plu, il a suffi, il a semblé
    "fallu", "plu", "neigé", "suffi", "semblé"})
_ETRE = frozenset({"est", "était", "sera", "serait", "fut", "a", "avait"})

_THEY = re.compile(r"(?<![\w'])they(?:'(?:re|ve|ll|d))?(?![\w])", re.IGNORECASE)
_HE_SHE = re.compile(r"(?<![\w'])(?:he|she)(?![\w])", re.IGNORECASE)
_AUX = (r"is|was|has|had|will|would|could|can|should|must|might|may|did|does|do|seemed|"
        r"seems|looked|looks|became|becomes|felt|feels|went|goes|got|gets|took|takes|made|"
        r"makes|came|comes|worked|works|[a-z]+ed|[a-z]+s")
_IT_SUBJECT = re.compile(rf"(?<![\w'])it(?:'s|\s+(?:{_AUX})\b)", re.IGNORECASE)


@dataclass(frozen=True)
class TheyRendering:
    cls: str  # one of CLASSES
    pronoun: str  # the pronoun that decided the class, or NO_PRONOUN
    subjects: tuple[str, ...]  # every French subject pronoun counted, in order


def has_they(english: str) -> bool:
    """Whether the English has the pronoun "they" (they're, they've, they'll, they'd too)."""
    return _THEY.search(english.translate(str.maketrans({"’": "'"}))) is not None


def _impersonal(words: list[str], i: int) -> bool:
    """Whether the "il" at ``words[i]`` is impersonal."""
    nxt = words[i + 1:i + 4] + ["", "", ""]
    if nxt[0] in ("n'", "ne"):  # il n'y a pas, il ne faut pas
        return _impersonal(words[:i + 1] + words[i + 2:], i)
    if nxt[0] in IMPERSONAL_ALWAYS:
        return True
    if nxt[0] in IMPERSONAL_BEFORE:
        return nxt[1] in IMPERSONAL_BEFORE[nxt[0]]
    if nxt[0] == "s'":
        return nxt[1] in IMPERSONAL_REFLEXIVE
    if nxt[0] == "se":  # il se peut que
        return nxt[1] in ("peut", "pouvait") and nxt[2] in ("que", "qu'")
    if nxt[0] in _ETRE:
        rest = nxt[1] if nxt[1] not in ("très", "si", "plus", "peu", "bien", "déjà") else nxt[2]
        return rest in IMPERSONAL_ADJECTIVES or rest.isdigit()
    return False


def _impersonal_inverted(words: list[str], i: int) -> bool:
    """Whether an inverted "il" is impersonal: faut-il, y a-t-il, a-t-il fallu."""
    j = i - 1
    while j >= 0 and words[j] in ("-", "t"):
        j -= 1
    if j == i - 1 or j < 0:
        return False  # not inverted
    verb = words[j]
    nxt = words[i + 1] if i + 1 < len(words) else ""
    return (verb in IMPERSONAL_ALWAYS or nxt in IMPERSONAL_ADJECTIVES
            or (verb in ("a", "avait", "aura") and j > 0 and words[j - 1] == "y"))


def _subjects(words: list[str]) -> tuple[list[str], int]:
    """(personal subject pronouns in order, number of impersonal il)."""
    found, impersonal = [], 0
    for i, word in enumerate(words):
        if word not in PRONOUN_CLASS:
            continue
        before = words[i - 1] if i else ""
        if before in PREPOSITIONS:
            continue
        if word == "il" and (_impersonal(words, i) or _impersonal_inverted(words, i)):
            impersonal += 1
            continue
        found.append(word)
    return found, impersonal


def subject_pronouns(french: str) -> list[str]:
    """The third-person subject pronouns of a normalised French text, in order."""
    return _subjects(tokens(french))[0]


def _it_renderings(words: list[str], impersonal: int) -> int:
    """French subjects other than a personal il/elle that can render an English "it"."""
    ce = sum(1 for i, w in enumerate(words)
             if w in IT_RENDERINGS or (w == "ce" and i + 1 < len(words)
                                       and words[i + 1] in _ETRE | {"sont", "seront"}))
    return ce + impersonal


def _english_counts(english: str) -> tuple[int, int]:
    """(he + she, subject it) in the English."""
    text = english.translate(str.maketrans({"’": "'"}))
    return len(_HE_SHE.findall(text)), len(_IT_SUBJECT.findall(text))


def untranslated(english: str, french: str) -> bool:
    """An empty output, or the English source again (spacing and case aside)."""
    text = " ".join((french or "").split()).casefold()
    return not text or text == " ".join(english.split()).casefold()


def classify_they(english: str, french: str, check: str = "ok") -> TheyRendering:
    """The class of the French rendering of the English "they" (see the module doc);
    ``check``: the output's check (gendermt.scoring.output_checks.check_output), ``echo`` for an
    echoed instruction."""
    if untranslated(english, french):
        return TheyRendering(UNTRANSLATED, UNTRANSLATED, ())
    if check == ECHO:
        return TheyRendering(ECHO, ECHO, ())
    words = tokens(normalize(french))
    subjects, impersonal = _subjects(words)
    singular = [p for p in subjects if p in ("il", "elle")]
    he_she, it = _english_counts(english)
    it_as_il = max(0, it - _it_renderings(words, impersonal))
    spare = singular[he_she + it_as_il:]
    for cls, candidates in (("inclusive", [p for p in subjects if p == "iel"]),
                            ("singular-gendered", spare),
                            ("plural", [p for p in subjects if PRONOUN_CLASS[p] == "plural"])):
        if candidates:
            return TheyRendering(cls, candidates[0], tuple(subjects))
    return TheyRendering("no-pronoun", NO_PRONOUN, tuple(subjects))
