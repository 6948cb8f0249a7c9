"""French words as the inclusive-language analyses see them.

A token is an elided word with its apostrophe (``l'``, ``qu'``, ``s'``), a word with its
inclusive dots (``infirmier.ère``, ``un.e``, ``tou.te.s``: one token, unlike the authors'
regex, which splits after the first dot), or one punctuation sign. Hyphens are signs of their
own, so the inverted subject of ``a-t-il`` is the token ``il``. Typographic apostrophes
become ``'`` so that ``l’air`` and ``l'air`` compare equal.
"""

from __future__ import annotations

import re

APOSTROPHES = str.maketrans({"’": "'", "ʼ": "'", "`": "'"})
_TOKEN = re.compile(r"[^\W\d_]+'(?=[^\W\d_])|\w+(?:\.\w+)*|[^\w\s]")


def tokens(text: str, *, lower: bool = True) -> list[str]:
    """The tokens of ``text`` (lower-cased unless ``lower=False``)."""
    text = text.translate(APOSTROPHES)
    return _TOKEN.findall(text.lower() if lower else text)


def find_phrase(words: list[str], phrase: list[str]) -> list[int]:
    """Start positions of ``phrase`` (a token list) in ``words``."""
    n = len(phrase)
    if not n:
        return []
    return [i for i in range(len(words) - n + 1) if words[i:i + n] == phrase]
