"""Neo-GATE's metrics (paper §3.2), computed exactly as FBK's official evaluation script.

The reference implementation is ``neogate_evaluation.py`` v1.0 of ``hlt-mt/fbk-NEUTR-evAL``
(Apache-2.0). This module re-implements its behaviour, quirks included, so that our figures
equal the script's on the same input:

* hypothesis words: lower-case, ASCII ``'`` → space, delete ``string.punctuation`` except the
  neomorpheme characters, split on single spaces, drop empty strings (tabs, curly
  apostrophes and other non-ASCII punctuation stay inside words);
* the script means to keep ``/`` (its comment: "to avoid matching double gender words, e.g.
  solo/a") but never assigns the result, so ``/`` is deleted and ``solo/a`` becomes ``soloa``;
  we do the same by default and keep ``/`` with ``keep_slash=True``;
* annotations: ``;``-separated, empty pieces skipped *before* stripping (so ``"a b c; ;"``
  is an error), fields split on single spaces: 3 fields = content word, 4 fields whose 4th
  holds ``=`` = function word ``anchor=distance``;
* matching: words left to right; for each, the remaining annotations in order and their forms
  in the order masculine, feminine, neomorphemic ("correct"), exact string equality; a
  function word counts only if the word ``distance`` positions away contains its anchor
  (substring test, on the original words); a matched annotation is removed, so it counts once,
  and its word is masked (``[X]``) for the mis-generation count only;
* a negative anchor position wraps round to the end of the line, as Python indexing does in
  the script; ``wrap_negative_anchor=False`` makes it a non-match instead. (Beyond the start of
  the line the script crashes with IndexError; here it is a non-match either way.)
* mis-generations: every unmasked word containing a neomorpheme character, once per character
  it contains;
* corpus figures: coverage = matched / annotations, accuracy = correct / matched (0 when
  nothing matched), CWA = coverage × accuracy / 100, mis-generation = mis-generations /
  annotations, all × 100.
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gendermt.core.errors import GenderMTError
from gendermt.scoring.metric_signature import metric_signature

FORMS = ("masculine", "feminine", "correct")
MASK = "[X]"
#: Bumped when the computation below (or the extraction before it) changes.
SIGNATURE_VERSION = 1
#: The scoring options (config ``evaluation``) and their defaults (schema.yaml's).
OPTION_DEFAULTS = {"keep_slash": False, "wrap_negative_anchor": True, "accept_plain": True}


def signature(options: Mapping[str, Any] | None = None, extracted: bool = True) -> str:
    """The metric's signature: the official script it reproduces and every scoring option
    (``options`` as the config's ``evaluation`` block, defaults filled in); ``extracted``
    False (outputs scored as given, the CLI) says ``accept_plain:none``."""
    chosen = {**OPTION_DEFAULTS, **(options or {})}
    return metric_signature("neogate", SIGNATURE_VERSION, {
        "reference": "neogate_evaluation.py-v1.0",
        "keep_slash": bool(chosen["keep_slash"]),
        "wrap_negative_anchor": bool(chosen["wrap_negative_anchor"]),
        "accept_plain": bool(chosen["accept_plain"]) if extracted else None})


class AnnotationError(GenderMTError):
    """An annotation string the official script would reject."""


@dataclass(frozen=True)
class Annotation:
    masculine: str
    feminine: str
    correct: str
    anchor: str | None = None
    distance: int | None = None

    @property
    def forms(self) -> tuple[tuple[str, str], ...]:
        return (("masculine", self.masculine), ("feminine", self.feminine),
                ("correct", self.correct))

    @property
    def is_function_word(self) -> bool:
        return self.anchor is not None


def parse_annotation(piece: str) -> Annotation:
    """One ``masc fem neo[ anchor=distance]`` entry (already stripped)."""
    fields = piece.split(" ")
    if len(fields) == 3:
        return Annotation(*fields)
    if len(fields) == 4 and "=" in fields[3]:
        anchor_distance = fields[3].split("=")
        if len(anchor_distance) == 2:
            try:
                distance = int(anchor_distance[1])
            except ValueError:
                raise AnnotationError(f"annotation {piece!r}: the distance in "
                                      f"{fields[3]!r} is not an integer") from None
            return Annotation(*fields[:3], anchor=anchor_distance[0], distance=distance)
    raise AnnotationError(
        f"annotation {piece!r}: expected 'masculine feminine neomorphemic' or "
        "'masculine feminine neomorphemic anchor=distance', separated by single spaces "
        "(a form holding a space, ';' or '=' breaks this format)")


def parse_annotations(text: str) -> list[Annotation]:
    """All entries of one ANNOTATION string, in order."""
    return [parse_annotation(piece.strip()) for piece in text.strip().split(";") if piece != ""]


def punctuation(neomorphemes: Iterable[str], keep_slash: bool = False) -> str:
    """The characters deleted from hypotheses: ASCII punctuation minus the neomorphemes."""
    punct = string.punctuation
    if keep_slash:
        punct = punct.replace("/", "")
    for symbol in neomorphemes:
        punct = punct.replace(symbol, "")
    return punct


def to_words(line: str, punct: str) -> list[str]:
    """The script's tokenisation of one hypothesis line."""
    text = line.lower().replace("'", " ").translate(str.maketrans("", "", punct))
    return [word for word in text.split(" ") if word != ""]


@dataclass
class LineResult:
    n_annotations: int
    matched: list[str] = field(default_factory=list)
    correct: list[str] = field(default_factory=list)
    masculine: list[str] = field(default_factory=list)
    feminine: list[str] = field(default_factory=list)
    misgenerations: list[str] = field(default_factory=list)


def _match(word: str, index: int, words: Sequence[str], annotations: Sequence[Annotation],
           wrap_negative_anchor: bool) -> tuple[int, str] | None:
    """(position in ``annotations``, form name) of the first annotation ``word`` matches."""
    for position, annotation in enumerate(annotations):
        for name, form in annotation.forms:
            if word != form:
                continue
            if not annotation.is_function_word:
                return position, name
            target = index + annotation.distance
            if target >= len(words) or target < -len(words):
                continue
            if target < 0 and not wrap_negative_anchor:
                continue
            if annotation.anchor in words[target]:
                return position, name
    return None


def evaluate_line(words: Sequence[str], annotations: Sequence[Annotation],
                  neomorphemes: Sequence[str], wrap_negative_anchor: bool = True) -> LineResult:
    """Match one hypothesis' words against its annotations; count mis-generations."""
    remaining = list(annotations)
    result = LineResult(n_annotations=len(remaining))
    masked = list(words)
    for index, word in enumerate(words):
        hit = _match(word, index, words, remaining, wrap_negative_anchor)
        if hit is None:
            continue
        position, name = hit
        result.matched.append(word)
        getattr(result, name).append(word)
        masked[index] = MASK
        del remaining[position]
    result.misgenerations = [word for word in masked for symbol in neomorphemes
                             if symbol in word]
    return result


def corpus_scores(lines: Iterable[LineResult]) -> dict[str, float | int]:
    """Counts and the four metrics (percent) over all lines, as the official script sums them."""
    counts = {"n_annotations": 0, "matched": 0, "correct": 0, "masculine": 0, "feminine": 0,
              "misgenerations": 0}
    for line in lines:
        counts["n_annotations"] += line.n_annotations
        for key in ("matched", "correct", "masculine", "feminine", "misgenerations"):
            counts[key] += len(getattr(line, key))
    n = counts["n_annotations"]
    if n == 0:
        raise GenderMTError("no annotations to score (the official script divides by zero "
                            "here): check that the data's ANNOTATION column is filled")
    coverage = counts["matched"] / n * 100
    accuracy = counts["correct"] / counts["matched"] * 100 if counts["matched"] else 0.0
    return {"coverage": coverage, "accuracy": accuracy, "cwa": coverage * accuracy / 100,
            "misgeneration": counts["misgenerations"] / n * 100, **counts}


def evaluate(hypotheses: Sequence[str], annotations: Sequence[str], neomorphemes: Sequence[str],
             *, keep_slash: bool = False, wrap_negative_anchor: bool = True
             ) -> tuple[list[LineResult], dict[str, float | int]]:
    """Per-line results and corpus scores of hypotheses against adapted annotation strings."""
    if len(hypotheses) != len(annotations):
        raise GenderMTError(f"{len(hypotheses)} hypotheses for {len(annotations)} annotated "
                            "items: give one output per item, in the data's order")
    symbols = [s for s in neomorphemes if s]
    punct = punctuation(symbols, keep_slash)
    lines = []
    for number, (hyp, ann) in enumerate(zip(hypotheses, annotations, strict=True), start=1):
        try:
            parsed = parse_annotations(ann)
        except AnnotationError as exc:
            raise AnnotationError(f"item {number}: {exc}") from None
        lines.append(evaluate_line(to_words(hyp, punct), parsed, symbols, wrap_negative_anchor))
    return lines, corpus_scores(lines)
