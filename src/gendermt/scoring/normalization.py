"""Normalisation of hypotheses before scoring: an option of the scoring stage.

A benchmark's contract provides its normalisers (``normalizers``: name → function), e.g. the
FairTranslate authors' ``non_binary_standardization`` (inclusive spellings → one form each),
which they apply to every MT output before BLEU and COMET, never to the references
(datasets.md §1.3). Here it is a scoring option rather than a translation post-processing
step, so that the stored outputs stay as the systems wrote them and switching it reruns only
the scores. The normaliser's name is appended to every score signature (``|hyp:<name>``), so
scores with and without it are never mixed up.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from gendermt.core.errors import GenderMTError


def normalizers() -> dict[str, str]:
    """Every normaliser a benchmark's contract provides: name → ``"module:function"``."""
    from gendermt.core import registry

    return {name: ref for b in registry.benchmarks() for name, ref in b.normalizers.items()}


def normalizer_module(name: str | None) -> str | None:
    """The module of a normaliser (a job that applies it imports it by name: its code
    fingerprint names it); None for no normalisation."""
    if name is None:
        return None
    return _ref(name).partition(":")[0]


def _ref(name: str) -> str:
    found = normalizers()
    if name not in found:
        raise GenderMTError(f"unknown hypothesis normaliser {name!r}; known: "
                            f"{', '.join(found)}")
    return found[name]


def normalizer(name: str | None) -> Callable[[str], str] | None:
    """The function of a normaliser name (None: no normalisation)."""
    if name is None:
        return None
    from gendermt.core.contract import resolve

    return resolve(_ref(name))


def normalize_all(hypotheses: Iterable[str], name: str | None) -> list[str]:
    """The hypotheses, normalised by ``name`` (as they are when ``name`` is None)."""
    func = normalizer(name)
    return [h if func is None else func(h) for h in hypotheses]


def signed(signature: str, name: str | None) -> str:
    """A score signature that records the normaliser (unchanged without one)."""
    return signature if name is None else f"{signature}|hyp:{name}"
