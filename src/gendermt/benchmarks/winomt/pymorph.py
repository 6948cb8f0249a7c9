"""WinoMT's Russian and Ukrainian readers (``original``, ``published``): the procedure of
mt_gender's ``src/languages/pymorph_support.py``, re-implemented with pymorphy3 (the
maintained successor of the pymorphy2 the authors used) and its dictionaries from PyPI.

What the authors' code does, and so what this does, to the translated entity (the target
words linked to the English entity and its article, joined by spaces: ``original.py``):

* nothing aligned (an empty or blank string): "unknown";
* the string is cut into words by pymorphy's ``simple_word_tokenize``; each word's gender
  is read from **all** of pymorphy's parses of it: the parses with a gender (masc, femn,
  neut; pymorphy's common gender ``ms-f`` is no gender) → "female" if any parse is
  feminine, else the most common of them (a tie: the first seen, in pymorphy's order);
  no parse with a gender → "neutral" (punctuation, prepositions, ``ms-f`` nouns: *судья*);
* the entity's gender is the most common of its words' genders (a tie: the first);
* no word at all (``simple_word_tokenize`` found none in a non-blank string): "neutral"
  in the code of 2019 that wrote the paper's logs (``published``), "unknown" since mt_gender
  commit 5d72d59 (October 2020, ``original``). Every non-blank string has a word, so the two
  read every item alike; both are kept so that the readers' names mean the same in every
  language.

Not the authors' exactly: pymorphy2 0.8 with the dictionaries of 2019 (pymorphy2-dicts-ru
2.4.404381, -uk 2.4.1.1.1460299261) is not installable with today's Python; pymorphy3's
dictionaries are newer builds of the same OpenCorpora / VESUM lexicons, so a few words have
other parses (docs/winomt-fidelity.md measures the effect on the published outputs).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from importlib import metadata

from gendermt.benchmarks.winomt.morphology import Reading
from gendermt.core.errors import GenderMTError, MissingResourceError

PYMORPH_LANGUAGES = ("ru", "uk")
PYMORPH_GENDERS = {"masc": "male", "femn": "female", "neut": "neutral"}
# what a string with no word reads as: in 2019 (published) and since 5d72d59 (original)
NO_WORD = {"published": "neutral", "original": "unknown"}


def _first_most_common(genders: Sequence[str]) -> tuple[str, int]:
    # Counter keeps first-seen order among equal counts, as the authors' most_common()[0]
    return Counter(genders).most_common(1)[0]


class PymorphReader:
    """ru, uk: the authors' pymorphy procedure (module docstring), one reading per
    distinct translated entity."""

    def __init__(self, lang: str, reader: str = "original") -> None:
        if lang not in PYMORPH_LANGUAGES:
            raise GenderMTError(f"no pymorphy reader for {lang!r}; known: "
                                f"{', '.join(PYMORPH_LANGUAGES)}")
        if reader not in NO_WORD:
            raise GenderMTError(f"no pymorphy reader {reader!r}; known: {', '.join(NO_WORD)}")
        try:
            import pymorphy3
            from pymorphy3.tokenizers import simple_word_tokenize
            self.analyzer = pymorphy3.MorphAnalyzer(lang=lang)
        except (ImportError, ValueError) as exc:  # ValueError: no dictionary of that lang
            raise MissingResourceError(
                f"WinoMT {lang} needs pymorphy3 and pymorphy3-dicts-{lang}: pip install "
                f"'gendermt[winomt]'") from exc
        self.lang = lang
        self.reader = reader
        self.tokenize = simple_word_tokenize
        self.cache: dict[str, Reading] = {}
        self.word_cache: dict[str, str] = {}
        self.version = (f"{reader}-{lang} ({pymorphy_label(lang)}; the authors' "
                        f"pymorph_support.py: any feminine parse makes a word female; "
                        f"no word {NO_WORD[reader]})")

    def read(self, profession: str) -> Reading:
        if profession not in self.cache:
            self.cache[profession] = self._read(profession)
        return self.cache[profession]

    def _read(self, profession: str) -> Reading:
        if not profession.strip():
            return Reading("unknown", "no aligned word")
        words = self.tokenize(profession)
        if not words:
            return Reading(NO_WORD[self.reader], f"{profession!r}: no word")
        genders = [self.word_gender(w) for w in words]
        gender, count = _first_most_common(genders)
        each = ", ".join(f"{w}={g}" for w, g in zip(words, genders, strict=True))
        return Reading(gender, f"{profession!r}: {count} of {len(genders)} words {gender} "
                               f"({each})")

    def word_gender(self, word: str) -> str:
        """The authors' get_word_gender: female if any parse is feminine, else the most
        common gender of the parses that have one, else neutral."""
        if word not in self.word_cache:
            genders = [PYMORPH_GENDERS[p.tag.gender] for p in self.analyzer.parse(word)
                       if p.tag.gender is not None]
            self.word_cache[word] = ("neutral" if not genders else
                                     "female" if "female" in genders else
                                     _first_most_common(genders)[0])
        return self.word_cache[word]


def pymorphy_label(lang: str) -> str:
    """pymorphy3's version and its dictionary's, for a reader's signature."""
    def version(package: str) -> str:
        try:
            return metadata.version(package)
        except metadata.PackageNotFoundError:
            return "?"
    return f"pymorphy3 {version('pymorphy3')}, pymorphy3-dicts-{lang} " \
           f"{version(f'pymorphy3-dicts-{lang}')}"
