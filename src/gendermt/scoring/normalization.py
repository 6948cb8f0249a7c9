"""Normalisation of hypotheses before scoring: an option of the scoring stage.

The FairTranslate authors rewrite every MT output with their ``non_binary_standardization``
(inclusive spellings → one form each) before BLEU and COMET, and never the references
(datasets.md §1.3). Here it is a scoring option rather than a translation post-processing
step, so that the stored outputs stay as the systems wrote them and switching it reruns only
the scores. The normaliser's name is appended to every score signature (``|hyp:<name>``), so
scores with and without it are never mixed up.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from gendermt.errors import GenderMTError

NORMALIZERS = ("non_binary_standardization",)


def normalizer(name: str | None) -> Callable[[str], str] | None:
    """The function of a normaliser name (None: no normalisation)."""
    if name is None:
        return None
    if name == "non_binary_standardization":
        from gendermt.benchmarks.fairtranslate.authors import non_binary_standardization

        return non_binary_standardization
    raise GenderMTError(f"unknown hypothesis normaliser {name!r}; known: {', '.join(NORMALIZERS)}")


def normalize_all(hypotheses: Iterable[str], name: str | None) -> list[str]:
    """The hypotheses, normalised by ``name`` (as they are when ``name`` is None)."""
    func = normalizer(name)
    return [h if func is None else func(h) for h in hypotheses]


def signed(signature: str, name: str | None) -> str:
    """A score signature that records the normaliser (unchanged without one)."""
    return signature if name is None else f"{signature}|hyp:{name}"
