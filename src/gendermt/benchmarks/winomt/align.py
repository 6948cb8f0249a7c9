"""Which target words translate the WinoMT entity: tokenisation and word alignment.

Two aligners, chosen by ``alignment: {aligner: ...}`` (the rest of the block is that
aligner's settings). Both learn from the sentence pairs they are given, with no downloaded
weights, so each call aligns a whole file of pairs at once (thousands of pairs align well; a
few dozen poorly).

* ``fast-align`` (default): ``fast_align -d -o -v`` (``fastalign.py``), the aligner of WinoMT's
  original evaluation, following the C++ tool step for step (its links on the published
  files). EM without random steps: the same pairs always give the same links.
* ``eflomal`` (Östling & Tiedemann 2016): Bayesian IBM models with MCMC sampling. Its sampler
  seeds itself from /dev/urandom and has no seed option, so two runs can differ on a few
  links (accuracy on WinoMT moved by up to 0.3): kept for comparison, not reproducible.
"""

from __future__ import annotations

import io
import logging
import re
import tempfile
from itertools import islice
from pathlib import Path
from typing import Any, NamedTuple

from gendermt.core.errors import MissingResourceError

log = logging.getLogger(__name__)

# English: words keep inner apostrophes and hyphens (driver's, co-worker), punctuation apart.
SOURCE_TOKEN = re.compile(r"\w+(?:[-'’]\w+)*|[^\w\s]")
# Romance/German targets: elided articles and prepositions (l', un', dell', qu') are tokens
# of their own, because they carry (or hide) the gender the entity gets.
# (quelqu'un, aujourd'hui are one word.)
TARGET_TOKEN = re.compile(
    r"(?i:quelqu['’]une?|aujourd['’]hui)|\w+['’](?=\w)|\w+(?:-\w+)*|[^\w\s]")


# fast_align's words: runs of anything but space and tab (its Dict::is_ws), so a no-break
# space stays inside a word as it does there
_FAST_ALIGN_SPACE = re.compile(r"[ \t]+")


def fast_align_words(text: str) -> list[str]:
    """Whitespace words as fast_align splits a line (space and tab only)."""
    return [w for w in _FAST_ALIGN_SPACE.split(text) if w]


class Token(NamedTuple):
    """A token and its character span (a tuple: tens of thousands are made per file)."""

    text: str
    start: int
    end: int


def tokenize(text: str, pattern: re.Pattern = TARGET_TOKEN) -> list[Token]:
    return [Token(m.group(), *m.span()) for m in pattern.finditer(text)]


_NON_SPACE = re.compile(r"\S+")  # str.split()'s words
_WORD_CHAR = re.compile(r"\w")


def source_words(sentence: str, entity_index: int, entity: str) -> tuple[list[str], int]:
    """The English sentence's tokens (``SOURCE_TOKEN``) and the position of the entity's head
    word among them.

    ``entity_index`` counts whitespace tokens (WinoMT's convention); a multi-word entity
    (``construction worker``) is indexed at its first word, and its head is its last word.
    """
    head = min(entity_index + len(entity.split()) - 1, len(sentence.split()) - 1)
    if head < 0:
        raise ValueError(f"no word {entity_index} (entity {entity!r}) in {sentence!r}")
    start, end = next(islice(_NON_SPACE.finditer(sentence), head, None)).span()
    # SOURCE_TOKEN never matches whitespace, so a whitespace word's tokens are those found
    # between its ends, and every non-space character is in one
    in_head = SOURCE_TOKEN.findall(sentence, start, end)
    # the head word's first word-token (not a quote or bracket stuck to it)
    first = next((k for k, w in enumerate(in_head) if _WORD_CHAR.search(w)), 0)
    return SOURCE_TOKEN.findall(sentence), len(SOURCE_TOKEN.findall(sentence, 0, start)) + first


def entity_positions(sentence: str, entity_index: int, entity: str) -> list[int]:
    """The positions among the sentence's tokens (``SOURCE_TOKEN``) of each word of the
    entity (``construction worker``: both), as :func:`source_words` finds its head."""
    return [source_words(sentence, i, "x")[1]
            for i in range(entity_index, entity_index + max(len(entity.split()), 1))
            if i < len(sentence.split())]


ALIGNERS = ("fast-align", "eflomal")
DEFAULT_ALIGNER = "fast-align"


def aligner_of(alignment: dict[str, Any] | None) -> tuple[str, dict[str, Any]]:
    """The aligner named by an ``alignment`` block and its own settings."""
    settings = dict(alignment or {})
    name = settings.pop("aligner", DEFAULT_ALIGNER)
    if name not in ALIGNERS:
        raise ValueError(f"unknown aligner {name!r}; known: {', '.join(ALIGNERS)}")
    return name, settings


def align_pairs(source: list[list[str]], target: list[list[str]],
                alignment: dict[str, Any] | None = None, forward_only: bool = False
                ) -> tuple[list[set[tuple[int, int]]], list[set[tuple[int, int]]]]:
    """Forward and reverse links (source index, target index) of each pair, by the aligner
    ``alignment`` names (reverse empty with ``forward_only`` where the aligner allows)."""
    name, settings = aligner_of(alignment)
    if name == "eflomal":
        return align(source, target, settings)
    from gendermt.benchmarks.winomt.fastalign import align as fast_align
    from gendermt.benchmarks.winomt.fastalign import align_forward
    if forward_only:
        return align_forward(source, target, settings), [set() for _ in source]
    return fast_align(source, target, settings)


def align(source: list[list[str]], target: list[list[str]], settings: dict[str, Any] | None = None
          ) -> tuple[list[set[tuple[int, int]]], list[set[tuple[int, int]]]]:
    """Forward and reverse eflomal links (source index, target index) of each sentence pair."""
    try:
        import eflomal
    except ImportError as exc:
        raise MissingResourceError(
            "WinoMT needs the eflomal aligner: pip install 'gendermt[winomt]' (or eflomal)"
        ) from exc
    if len(source) != len(target):
        raise ValueError("source and target have different numbers of sentences")
    settings = dict(settings or {})
    aligner = eflomal.Aligner(**settings)

    def as_file(sentences: list[list[str]]) -> io.StringIO:
        # eflomal reads whitespace-tokenised lines; an empty line would shift nothing but
        # gives it no words, so a placeholder keeps pairs in step
        return io.StringIO("".join(" ".join(t.lower() for t in s) + "\n" if s else "∅\n"
                                   for s in sentences))

    with tempfile.TemporaryDirectory() as tmp:
        fwd, rev = Path(tmp) / "fwd", Path(tmp) / "rev"
        aligner.align(as_file(source), as_file(target), links_filename_fwd=str(fwd),
                      links_filename_rev=str(rev))
        return _read_links(fwd, len(source)), _read_links(rev, len(source))


def _read_links(path: Path, n: int) -> list[set[tuple[int, int]]]:
    lines = path.read_text(encoding="utf-8").split("\n")[:n]
    lines += [""] * (n - len(lines))
    return [parse_links(line) for line in lines]


def parse_links(line: str) -> set[tuple[int, int]]:
    """One line of fast_align's (and eflomal's) output, ``i-j`` pairs, as a set."""
    return {(int(i), int(j)) for i, _, j in (link.partition("-") for link in line.split())}


def format_links(links: set[tuple[int, int]]) -> str:
    """One line in fast_align's format: ``i-j`` pairs in target order (the tool prints each
    target word's link as it scans the target), a source order among equal targets."""
    return " ".join(f"{i}-{j}" for i, j in sorted(links, key=lambda ij: (ij[1], ij[0])))


def linked_targets(fwd: set[tuple[int, int]], rev: set[tuple[int, int]], index: int
                   ) -> list[int]:
    """Target positions aligned to source position ``index``: links both directions agree
    on, else the forward ones, else the reverse ones (sorted)."""
    f = {j for i, j in fwd if i == index}
    r = {j for i, j in rev if i == index}
    return sorted((f & r) or f or r)
