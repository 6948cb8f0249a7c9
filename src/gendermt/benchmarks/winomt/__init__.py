"""WinoMT (Stanovsky et al., ACL 2019): is the gender of an English occupation noun, fixed by
coreference with a pronoun, kept in the translation? Scored from the translations alone by
aligning the entity to the target and reading the target word's grammatical gender."""

GENDERS = ("male", "female", "neutral")  # gold labels of en.txt
PREDICTIONS = ("male", "female", "neutral", "unknown")
LANGUAGES = ("fr", "es", "it", "de", "ru", "uk", "he", "ar")
# The languages whose default (corrected) reader is, for now, the authors' current procedure
# (reader ``original``: pymorphy for ru/uk, last-letter heuristics for he/ar), with no head
# noun rule, neutral reading or artefact flag yet; its signature says so
ORIGINAL_DEFAULT_LANGUAGES = ("ru", "uk", "he", "ar")
# How the entity's gender is read: the project's context-aware reader (default), or the
# original tool's procedure (evaluate.py, original.py): as mt_gender's code is now
# (``original``), or as it was in 2019 when the paper's logs were written (``published``:
# "no gendered word" read as neutral, not unknown)
READERS = ("corrected", "original", "published")
DEFAULT_READER = "corrected"
# the readers that round as the original evaluate.py does (metric.compute(rounded=True))
ORIGINAL_READERS = ("original", "published")


def procedure(reader: str, lang: str) -> str:
    """The procedure that ``reader`` runs in ``lang``: itself, except the default reader in
    ORIGINAL_DEFAULT_LANGUAGES, which runs ``original`` (its alignment and its reading)."""
    return "original" if reader == DEFAULT_READER and lang in ORIGINAL_DEFAULT_LANGUAGES \
        else reader
