"""WinoMT (Stanovsky et al., ACL 2019): is the gender of an English occupation noun, fixed by
coreference with a pronoun, kept in the translation? Scored from the translations alone by
aligning the entity to the target and reading the target word's grammatical gender."""

GENDERS = ("male", "female", "neutral")  # gold labels of en.txt
PREDICTIONS = ("male", "female", "neutral", "unknown")
LANGUAGES = ("fr", "es", "it", "de")
# How the entity's gender is read: the project's context-aware reader (default), or the
# original tool's procedure (evaluate.py, original.py)
READERS = ("corrected", "original")
DEFAULT_READER = "corrected"
