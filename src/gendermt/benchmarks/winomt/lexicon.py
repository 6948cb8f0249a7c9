"""Known translations of each WinoMT occupation, per target language: what the corrected
reader uses to pick the head of an aligned phrase, to allow a neutral reading, and to flag
an entity read from a word that does not translate the occupation (``artefact``: Apertium's
*driver → la motor*).

The lexicon (``resources/winomt/occupation_translations.tsv``) was made by
:func:`build` (``tools/winomt_occupation_lexicon.py``) from the published outputs of the four
commercial systems (google, bing, systran, aws; ``en-{es,fr,it,de}.txt``): every item's
entity is aligned and its head word chosen by the corrected reader's rules with no lexicon;
a head is a known translation of the occupation when it is the head in at least
:data:`MIN_SHARE` of that occupation's sentences (in any of the four systems' outputs) and
in the outputs of at least :data:`MIN_SYSTEMS` systems, or, in one system's outputs
alone, in at least :data:`MIN_SHARE_ONE_SYSTEM` of the sentences (that system's own
choice: google fr *la responsable* for manager). Words are compared by :func:`key`,
which removes the endings of gender and number, so that *conductor* and *conductora*,
*infirmier* and *infirmière*, *Lehrer* and *Lehrerin* are one entry: the lexicon says
which word translates the occupation, never which gender it has. No human label was used.
"""

from __future__ import annotations

import csv
import hashlib
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path

from gendermt.config.project import project_file
from gendermt.core.errors import DatasetError, MissingResourceError

# the project's resources/ (the checkout's, or the copy in the wheel)
DEFAULT_PATH = project_file("resources/winomt/occupation_translations.tsv")
COLUMNS = ["lang", "occupation", "key", "example", "count", "share", "systems"]
MIN_SHARE = 0.1  # of an occupation's sentences
MIN_SYSTEMS = 2
# one system's own word (google fr: la responsable for manager) when it is its choice in
# at least this share of the occupation's sentences
MIN_SHARE_ONE_SYSTEM = 0.25

# Endings of gender and number removed by key(), longest first per language (a stem keeps
# at least three letters). (ending, replacement)
_ENDINGS = {
    "es": [("oras", "or"), ("ores", "or"), ("ora", "or"), ("as", ""), ("os", ""), ("es", ""),
           ("a", ""), ("o", ""), ("e", ""), ("s", "")],
    "it": [("trice", "tor"), ("trici", "tor"), ("tore", "tor"), ("tori", "tor"),
           ("essa", ""), ("esse", ""), ("a", ""), ("o", ""), ("e", ""), ("i", "")],
    "fr": [("trices", "teur"), ("trice", "teur"), ("euses", "eur"), ("euse", "eur"),
           ("ières", "ier"), ("ière", "ier"), ("ères", "er"), ("ère", "er"),
           ("iennes", "ien"), ("ienne", "ien"), ("onnes", "on"), ("onne", "on"),
           ("esses", ""), ("esse", ""), ("es", ""), ("e", ""), ("s", ""), ("x", "")],
    "de": [("innen", ""), ("in", "")],
}
_DE_ADJECTIVAL = ("en", "er", "em", "e")


def _strip_accents(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", text)
                   if unicodedata.category(c) != "Mn")


def key(word: str, lang: str) -> str:
    """``word`` lower-cased without its endings of gender and number (see the module doc)."""
    lower = word.lower().strip("'’")
    if lang == "de":
        lower = _strip_accents(lower)  # Ärztin → arzt(in): the umlaut is the motion's too
        for ending, _ in _ENDINGS["de"]:
            if lower.endswith(ending) and len(lower) - len(ending) >= 4:
                lower = lower[: -len(ending)]
                break
        if lower.endswith("s") and len(lower) > 4:  # genitive, plural
            lower = lower[:-1]
        for ending in _DE_ADJECTIVAL:  # Angestellte/Angestellter, Lehrer/Lehrerin
            if lower.endswith(ending) and len(lower) - len(ending) >= 3:
                return lower[: -len(ending)]
        return lower
    for ending, replacement in _ENDINGS.get(lang, []):
        if lower.endswith(ending) and len(lower) - len(ending) + len(replacement) >= 3:
            return lower[: -len(ending)] + replacement
    return lower


class Lexicon:
    """The known translations (keys) of each (language, occupation)."""

    def __init__(self, entries: Mapping[tuple[str, str], set[str]], digest: str = "") -> None:
        self.entries = {k: set(v) for k, v in entries.items()}
        self.digest = digest

    def known(self, lang: str, occupation: str) -> set[str]:
        return self.entries.get((lang, occupation.lower()), set())

    def translates(self, word: str, lang: str, occupation: str) -> bool | None:
        """Whether ``word`` is a known translation of ``occupation``; None where the lexicon
        has no entry for that occupation (no claim either way)."""
        known = self.known(lang, occupation)
        return (key(word, lang) in known) if known else None


def load(path: str | Path | None = None) -> Lexicon:
    """The lexicon at ``path`` (default: :data:`DEFAULT_PATH`)."""
    path = Path(path) if path is not None else DEFAULT_PATH
    if not path.is_file():
        raise MissingResourceError(
            f"WinoMT occupation lexicon {path} not found (tools/winomt_occupation_lexicon.py "
            "makes it)")
    raw = path.read_bytes()
    entries: dict[tuple[str, str], set[str]] = defaultdict(set)
    rows = list(csv.DictReader(raw.decode("utf-8").splitlines(), delimiter="\t"))
    if rows and set(COLUMNS) - set(rows[0]):
        raise DatasetError(path, f"needs columns {', '.join(COLUMNS)}")
    for row in rows:
        entries[row["lang"], row["occupation"]].add(row["key"])
    return Lexicon(entries, hashlib.sha256(raw).hexdigest()[:8])


def build(heads: Iterable[tuple[str, str, str, str, str]]) -> list[dict[str, object]]:
    """Lexicon rows from (lang, system, occupation, item_id, head word) of every aligned
    item (module doc for the rule)."""
    counts: Counter = Counter()
    systems: dict[tuple[str, str, str], set[str]] = defaultdict(set)
    items: dict[tuple[str, str, str], set[str]] = defaultdict(set)
    examples: dict[tuple[str, str, str], Counter] = defaultdict(Counter)
    totals: dict[tuple[str, str], set[str]] = defaultdict(set)
    for lang, system, occupation, item, head in heads:
        occupation = occupation.lower()
        totals[lang, occupation].add(item)
        if sum(c.isalpha() for c in head) < 3:  # an elided article (l'), not a word
            continue
        k = key(head, lang)
        counts[lang, occupation, k] += 1
        systems[lang, occupation, k].add(system)
        items[lang, occupation, k].add(item)
        examples[lang, occupation, k][head.lower()] += 1
    rows = []
    for (lang, occupation, k), n in sorted(counts.items()):
        # the share of the occupation's sentences: an aligner's error repeats on one
        # sentence in every system's output, a translation on many sentences
        share = len(items[lang, occupation, k]) / len(totals[lang, occupation])
        if share >= (MIN_SHARE if len(systems[lang, occupation, k]) >= MIN_SYSTEMS
                     else MIN_SHARE_ONE_SYSTEM):
            rows.append({"lang": lang, "occupation": occupation, "key": k,
                         "example": examples[lang, occupation, k].most_common(1)[0][0],
                         "count": n, "share": round(share, 4),
                         "systems": len(systems[lang, occupation, k])})
    return rows
