"""Inclusive indicators in a French text (FairTranslate §8.1, Table 4).

The paper's indicators: the words ``iel``, ``lea``, ``un.e``, ``ce.tte`` and the occupation
endings ``ien.ne``, ``ier.ère``, ``eur.euse``, ``eur.e``, ``eux.euse``, ``tre.esse``,
``te.esse``, ``eur.rice``. They are looked for in *normalised* text (:mod:`.normalize`), so
the words are in their canonical spellings: ``le.a`` stands for the paper's ``lea`` (the
authors' normaliser rewrites ``lea`` to ``le.a`` and their list then misses it; here it does
not). Words match whole tokens in any case (``Iel``, ``IEL``); endings match inside a dotted
token, case-sensitively (so a missing space after a stop, ``professeur.Elle``, is no hit).
Other inclusive marks (``iels``, ``resté.e``, ``avocat.e``) are not indicators, as in the
paper.
"""

from __future__ import annotations

from gendermt.benchmarks.fairtranslate.tokens import tokens

INDICATOR_WORDS = ("iel", "le.a", "un.e", "ce.tte")
INDICATOR_ENDINGS = ("ien.ne", "ier.ère", "eur.euse", "eur.e", "eux.euse", "tre.esse",
                     "te.esse", "eur.rice")


def indicators(text: str) -> list[str]:
    """The indicators found in ``text`` (each once, in the order of the lists above)."""
    lowered = set(tokens(text))
    dotted = [t for t in tokens(text, lower=False) if "." in t]
    found = [w for w in INDICATOR_WORDS if w in lowered]
    found += [f"-{e}" for e in INDICATOR_ENDINGS if any(e in t for t in dotted)]
    return found
