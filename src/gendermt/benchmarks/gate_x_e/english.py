"""English words that carry gender, for reading GATE X-E's translations and rewrites: the
gendered pronouns, gendered nouns and titles with their counterparts, and their neutral
forms; a tokeniser. Used by the f/m swap detector (``swapped.py``) and the error types of
Table 3 (``errors.py``).
"""

from __future__ import annotations

import re

FEMININE_PRONOUNS = frozenset({"she", "her", "hers", "herself"})
MASCULINE_PRONOUNS = frozenset({"he", "him", "his", "himself"})
NEUTRAL_PRONOUNS = frozenset({"they", "them", "their", "theirs", "themselves", "themself"})
PRONOUNS = FEMININE_PRONOUNS | MASCULINE_PRONOUNS | NEUTRAL_PRONOUNS

# (feminine, masculine) pairs; plurals are added below.
_PAIRS = [
    ("woman", "man"), ("girl", "boy"), ("mother", "father"), ("mom", "dad"),
    ("mum", "dad"), ("mommy", "daddy"), ("wife", "husband"), ("sister", "brother"),
    ("daughter", "son"), ("aunt", "uncle"), ("niece", "nephew"),
    ("grandmother", "grandfather"), ("grandma", "grandpa"), ("granddaughter", "grandson"),
    ("girlfriend", "boyfriend"), ("lady", "gentleman"), ("madam", "sir"), ("mrs", "mr"),
    ("ms", "mr"), ("miss", "mister"), ("queen", "king"), ("princess", "prince"),
    ("bride", "groom"), ("fiancee", "fiance"), ("fiancée", "fiancé"), ("actress", "actor"),
    ("waitress", "waiter"), ("stewardess", "steward"), ("hostess", "host"),
    ("heroine", "hero"), ("widow", "widower"), ("businesswoman", "businessman"),
    ("chairwoman", "chairman"), ("policewoman", "policeman"), ("spokeswoman", "spokesman"),
    ("congresswoman", "congressman"), ("sportswoman", "sportsman"),
    ("stepmother", "stepfather"), ("stepdaughter", "stepson"), ("stepsister", "stepbrother"),
    ("mother-in-law", "father-in-law"), ("daughter-in-law", "son-in-law"),
    ("sister-in-law", "brother-in-law"), ("gal", "guy"), ("lass", "lad"), ("nun", "monk"),
    ("goddess", "god"), ("duchess", "duke"), ("countess", "count"), ("empress", "emperor"),
    ("headmistress", "headmaster"), ("schoolgirl", "schoolboy"), ("madame", "monsieur"),
]
_IRREGULAR_PLURALS = {"woman": "women", "man": "men", "businesswoman": "businesswomen",
                      "businessman": "businessmen", "chairwoman": "chairwomen",
                      "chairman": "chairmen", "policewoman": "policewomen",
                      "policeman": "policemen", "spokeswoman": "spokeswomen",
                      "spokesman": "spokesmen", "sportswoman": "sportswomen",
                      "sportsman": "sportsmen", "congresswoman": "congresswomen",
                      "congressman": "congressmen", "gentleman": "gentlemen",
                      "lady": "ladies"}


def _plural(word: str) -> str:
    if word in _IRREGULAR_PLURALS:
        return _IRREGULAR_PLURALS[word]
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    return word + "s"


FEMININE_NOUNS = frozenset(w for f, _ in _PAIRS for w in (f, _plural(f)))
MASCULINE_NOUNS = frozenset(w for _, m in _PAIRS for w in (m, _plural(m)))
# Neutral counterparts GATE X-E's neutral references use.
NEUTRAL_NOUNS = frozenset({
    "person", "people", "persons", "child", "children", "kid", "kids", "parent", "parents",
    "spouse", "spouses", "partner", "partners", "sibling", "siblings", "relative",
    "grandparent", "grandparents", "grandchild", "grandchildren", "date", "fiancé(e)",
    "mx", "chairperson", "chair", "monarch", "ruler", "royal", "server", "flight",
    "attendant", "police", "officer", "spokesperson", "businessperson", "pibling",
    "nibling", "honored", "honorable", "folks", "individual", "someone", "friend",
})
GENDERED_NOUNS = FEMININE_NOUNS | MASCULINE_NOUNS
FEMININE = FEMININE_PRONOUNS | FEMININE_NOUNS
MASCULINE = MASCULINE_PRONOUNS | MASCULINE_NOUNS
_TOKEN = re.compile(r"[\w-]+|[^\w\s]")


def tokens(text: str) -> list[str]:
    """Lower-cased words and punctuation marks (``She's`` → ``she``, ``'``, ``s``)."""
    return _TOKEN.findall((text or "").lower())


def gender_of(word: str) -> str | None:
    """``feminine``, ``masculine`` or None for a lower-cased token."""
    if word in FEMININE:
        return "feminine"
    if word in MASCULINE:
        return "masculine"
    return None


def kind_of(word: str) -> str:
    """``pronoun``, ``noun`` (a gendered noun or title, or its neutral form) or ``other``."""
    if word in PRONOUNS:
        return "pronoun"
    if word in GENDERED_NOUNS or word in NEUTRAL_NOUNS:
        return "noun"
    return "other"
