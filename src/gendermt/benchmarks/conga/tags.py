"""Inline gender tags: ``word <F1>`` — parse, validate, strip and re-insert.

The syntax is gENder-IT's (a tag follows its word after a space, ``<A1>``, ``<A2>`` index
ambiguous referents) as ConGA extends it (every tag carries an entity index; Italian has no
``<A>``). ConGA's own files are not published, so the delimiters, the letters each side
allows and whether an index is required are settings (:class:`TagScheme`), not constants.

Rules: a tag attaches to the word before it (the last run of non-space characters, without
surrounding punctuation, so ``“liberato” <M3>`` tags *liberato* and ``you <A1>’re`` tags
*you*); several tags may follow one word; untagged words stay untagged; the index is the
entity, the letter its gender. Malformed tags raise :class:`TagError` naming the sentence.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from gendermt.benchmarks.conga import SOURCE_LETTERS, TARGET_LETTERS
from gendermt.core.errors import GenderMTError

# Stripped from a tagged word's edges: quotes, brackets and sentence punctuation.
EDGE_PUNCTUATION = "\"'“”‘’«»()[]{}.,;:!?…—–-"


class TagError(GenderMTError, ValueError):
    """A tagged sentence is malformed; the message names where it is and the sentence."""


@dataclass(frozen=True)
class TagScheme:
    """How tags are written on one side. ``letters``: the genders allowed there."""

    letters: tuple[str, ...] = SOURCE_LETTERS
    open: str = "<"
    close: str = ">"
    require_index: bool = True
    #: one entity has one gender (the English gold); Italian may realise one entity as both
    consistent_entities: bool = True
    side: str = "English"

    @classmethod
    def source(cls, **options: Any) -> TagScheme:
        return cls(**{"letters": SOURCE_LETTERS, "side": "English",
                      "consistent_entities": True, **_clean(options)})

    @classmethod
    def target(cls, **options: Any) -> TagScheme:
        return cls(**{"letters": TARGET_LETTERS, "side": "Italian",
                      "consistent_entities": False, **_clean(options)})


def _clean(options: dict[str, Any]) -> dict[str, Any]:
    known = {"letters", "open", "close", "require_index"}
    unknown = sorted(set(options) - known)
    if unknown:
        raise GenderMTError(f"unknown tag option(s) {unknown}; known: {sorted(known)}")
    out = dict(options)
    if "letters" in out:
        out["letters"] = tuple(str(x).upper() for x in out["letters"])
    return out


@dataclass(frozen=True)
class Tag:
    gender: str            # one of the scheme's letters
    entity: int | None     # the index; None only where the scheme allows unindexed tags
    word: str              # the word it is attached to
    start: int             # the word's character span in the untagged text
    end: int

    @property
    def label(self) -> str:
        return f"{self.gender}{'' if self.entity is None else self.entity}"


@dataclass(frozen=True)
class TaggedSentence:
    text: str                          # the sentence without its tags
    tags: tuple[Tag, ...] = field(default_factory=tuple)

    def tag_counts(self) -> Counter:
        return Counter(t.gender for t in self.tags)

    def entities(self) -> dict[int, tuple[str, ...]]:
        """Entity index → its genders in first-seen order (unindexed tags left out)."""
        out: dict[int, list[str]] = {}
        for t in self.tags:
            if t.entity is not None and t.gender not in out.setdefault(t.entity, []):
                out[t.entity].append(t.gender)
        return {k: tuple(v) for k, v in out.items()}

    def unindexed(self) -> list[Tag]:
        return [t for t in self.tags if t.entity is None]

    def render(self, scheme: TagScheme | None = None) -> str:
        """The sentence with its tags written back after their words."""
        scheme = scheme or TagScheme()
        out, pos = [], 0
        for tag in sorted(self.tags, key=lambda t: t.end):
            out.append(self.text[pos:tag.end])
            out.append(f" {scheme.open}{tag.label}{scheme.close}")
            pos = tag.end
        out.append(self.text[pos:])
        return "".join(out)


def normalise_space(text: str) -> str:
    """Texts are compared with runs of white space collapsed and the ends stripped."""
    return " ".join(text.split())


def _fail(where: str, sentence: str, problem: str) -> TagError:
    prefix = f"{where}: " if where else ""
    return TagError(f"{prefix}{problem} in sentence {sentence!r}")


def parse_tagged(sentence: str, scheme: TagScheme | None = None, *, where: str = ""
                 ) -> TaggedSentence:
    """Parse one tagged sentence; ``where`` (e.g. ``file.txt line 3``) goes into errors."""
    scheme = scheme or TagScheme()
    if not isinstance(sentence, str):
        raise _fail(where, str(sentence), f"expected text, found {type(sentence).__name__}")
    o, c = re.escape(scheme.open), re.escape(scheme.close)
    body = re.compile(r"([A-Za-z])(\d*)")
    plain: list[str] = []
    tags: list[Tag] = []
    genders: dict[int, str] = {}
    pos = 0
    for match in re.finditer(o, sentence):
        start = match.start()
        if start < pos:
            continue
        rest = sentence[match.end():]
        close = re.search(f"{c}|{o}|\\s", rest)
        if close is None or not re.fullmatch(c, close.group(0)):
            shown = sentence[start:start + 12]
            raise _fail(where, sentence, f"unclosed tag {shown!r} (a tag is "
                                         f"{scheme.open}M1{scheme.close})")
        content = rest[:close.start()]
        end = match.end() + close.end()
        parsed = body.fullmatch(content)
        if parsed is None:
            raise _fail(where, sentence, f"malformed tag {sentence[start:end]!r} (expected a "
                                         f"gender letter and an entity index, e.g. "
                                         f"{scheme.open}F1{scheme.close})")
        letter, digits = parsed.group(1).upper(), parsed.group(2)
        if letter not in scheme.letters:
            hint = " (ConGA puts no <A> in Italian)" if letter == "A" and "A" not in \
                scheme.letters else ""
            raise _fail(where, sentence, f"unknown gender letter {letter!r} in tag "
                                         f"{sentence[start:end]!r}; {scheme.side} tags allow "
                                         f"{', '.join(scheme.letters)}{hint}")
        if not digits and scheme.require_index:
            raise _fail(where, sentence, f"tag {sentence[start:end]!r} has no entity index "
                                         f"(e.g. {scheme.open}{letter}1{scheme.close})")
        entity = int(digits) if digits else None
        if entity is not None and entity < 1:
            raise _fail(where, sentence, f"entity index {entity} in tag "
                                         f"{sentence[start:end]!r}: indices start at 1")
        if entity is not None and scheme.consistent_entities:
            seen = genders.setdefault(entity, letter)
            if seen != letter:
                raise _fail(where, sentence, f"index mismatch: entity {entity} is tagged "
                                             f"{seen} and {letter} ({scheme.side} gives one "
                                             f"entity one gender; a different referent needs "
                                             f"its own index)")
        # The tag and the white space before it go; what follows it stays (``you <A1>’re``).
        plain.append(sentence[pos:start].rstrip())
        text_so_far = "".join(plain)
        word_end = len(text_so_far.rstrip(EDGE_PUNCTUATION + " "))
        run = re.search(r"\S+$", text_so_far[:word_end]) if word_end else None
        word = run.group(0).lstrip(EDGE_PUNCTUATION) if run else ""
        if not word:
            raise _fail(where, sentence, f"tag {sentence[start:end]!r} follows no word")
        tags.append(Tag(letter, entity, word, word_end - len(word), word_end))
        pos = end
    plain.append(sentence[pos:])
    text = "".join(plain)
    stray = re.search(rf"(?<![\w{o}])[A-Za-z]\d+{c}", text) if scheme.close != scheme.open \
        else None
    if stray:
        raise _fail(where, sentence, f"unclosed tag: {stray.group(0)!r} has no "
                                     f"{scheme.open!r}")
    # Collapse white space: offsets are recomputed on the normalised text.
    return _normalised(TaggedSentence(text, tuple(tags)))


def _normalised(sentence: TaggedSentence) -> TaggedSentence:
    text = sentence.text
    last = max((i for i, ch in enumerate(text) if not ch.isspace()), default=-1)
    keep = [i for i, ch in enumerate(text) if not ch.isspace() or (
        0 < i < last and not text[i - 1].isspace())]
    new_index = {old: new for new, old in enumerate(keep)}
    out = "".join(" " if text[i].isspace() else text[i] for i in keep)
    tags = []
    for t in sentence.tags:
        start = new_index[t.start]
        end = new_index[t.end - 1] + 1
        tags.append(Tag(t.gender, t.entity, t.word, start, end))
    return TaggedSentence(out, tuple(tags))


def strip_tags(sentence: str, scheme: TagScheme | None = None) -> str:
    return parse_tagged(sentence, scheme).text
