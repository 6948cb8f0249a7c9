"""WinoMT's Hebrew and Arabic readers (``original``, ``published``): the heuristics of
mt_gender's ``src/languages/semitic_languages.py``, re-implemented.

Both read the translated entity (the target whitespace words linked to the English entity
and its article, joined by spaces: ``original.py``), never the sentence:

* ``he``: the entity is tokenised by spaCy's rule-based Hebrew tokenizer (``spacy.blank
  ("he")``, no trained model: the authors' ``spacy.lang.he.Hebrew().tokenizer``, which cuts
  punctuation off words); the accusative marker *את* is dropped; "female" if any remaining
  token ends in *ת* (tav) or *ה* (he), the common feminine endings (*רופאה*, *מזכירה*,
  *סטודנטית*), else "male". A masculine noun ending in either letter (*מורה*, teacher, is
  both) is read female; no reading is ever "neutral".
* ``ar``: the entity is cut at whitespace; "female" if any word contains *ة* (tāʾ marbūṭa,
  or its final presentation form U+FE94) anywhere, else "male".
* Nothing aligned: in the code of 2019 that wrote the paper's logs (``published``) Hebrew
  read "female" and Arabic "male"; since mt_gender commit 12c67d4 (August 2020,
  ``original``) both read "unknown".

Not the authors' exactly: today's spaCy's Hebrew tokenizer rules stand in for spaCy
2.0.18's (the authors' install, not installable with today's Python); the heuristic reads
a token's last letter, which only the splitting of punctuation and of prefixes could
change (tests/benchmarks/winomt/test_winomt_semitic.py pins tokens of published lines).
"""

from __future__ import annotations

from gendermt.benchmarks.winomt.morphology import Reading
from gendermt.benchmarks.winomt.spacy_models import import_spacy
from gendermt.core.errors import GenderMTError, MissingResourceError

SEMITIC_LANGUAGES = ("he", "ar")
HE_ACCUSATIVE = "את"
HE_FEMININE_LAST = ("ת", "ה")
AR_TA_MARBUTA = ("ة", "ﺔ")  # U+0629 and its final form U+FE94
# what nothing aligned reads as, per reader and language
NOTHING_ALIGNED = {"published": {"he": "female", "ar": "male"},
                   "original": {"he": "unknown", "ar": "unknown"}}


def hebrew_tokenizer():
    """spaCy's rule-based Hebrew tokenizer (no model download)."""
    try:
        return import_spacy().blank("he").tokenizer
    except ImportError as exc:
        raise MissingResourceError("WinoMT Hebrew needs spaCy's tokenizer: pip install "
                                   "'gendermt[winomt]'") from exc


class SemiticReader:
    """he, ar: the authors' last-letter heuristics (module docstring)."""

    def __init__(self, lang: str, reader: str = "original") -> None:
        if lang not in SEMITIC_LANGUAGES:
            raise GenderMTError(f"no Semitic reader for {lang!r}; known: "
                                f"{', '.join(SEMITIC_LANGUAGES)}")
        if reader not in NOTHING_ALIGNED:
            raise GenderMTError(f"no Semitic reader {reader!r}; known: "
                                f"{', '.join(NOTHING_ALIGNED)}")
        self.lang = lang
        self.empty = NOTHING_ALIGNED[reader][lang]
        self.cache: dict[str, Reading] = {}
        if lang == "he":
            spacy = import_spacy()
            self.tokenizer = hebrew_tokenizer()
            self.version = (f"{reader}-he (spaCy {spacy.__version__} Hebrew tokenizer; "
                            f"a token ending in tav or he: female, else male; nothing "
                            f"aligned {self.empty})")
        else:
            self.tokenizer = None
            self.version = (f"{reader}-ar (whitespace words; a word with tā' marbūṭa: "
                            f"female, else male; nothing aligned {self.empty})")

    def tokens(self, profession: str) -> list[str]:
        """The words the heuristic reads (Hebrew: spaCy's tokens less את)."""
        if self.tokenizer is None:
            return profession.split()
        return [t.text for t in self.tokenizer(profession) if t.text != HE_ACCUSATIVE]

    def read(self, profession: str) -> Reading:
        if profession not in self.cache:
            self.cache[profession] = self._read(profession)
        return self.cache[profession]

    def _read(self, profession: str) -> Reading:
        if not profession.strip():
            return Reading(self.empty, f"no aligned word ({self.empty})")
        words = self.tokens(profession)
        if self.lang == "he":
            marked = [w for w in words if w.endswith(HE_FEMININE_LAST)]
            why = "ends in tav or he"
        else:
            marked = [w for w in words if any(m in w for m in AR_TA_MARBUTA)]
            why = "has tā' marbūṭa"
        if marked:
            return Reading("female", f"{marked[0]!r} {why}")
        return Reading("male", f"{profession!r}: no word {why.replace('has', 'with')}")
