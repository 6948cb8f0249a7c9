"""A subset read like the full set: the alignment corpus of a system on a study's subset.

fast_align (and eflomal) learn their word-translation table from the pairs they are given, so
an item's links depend on every other pair of the file: the same 24 Google outputs of
public-gemma's subset, aligned as a 24-pair corpus, read fr accuracy 62.50 where the full
file's alignment reads 70.83. Every other step of the WinoMT reading is per item (the readers,
spaCy) or a statistic of the chosen items (accuracy, ΔG, ΔS).

So the benchmark's ``alignment_corpus`` says, per system, what its subset lines are aligned
in:

* ``whole``: the system's translations of the **whole** set (``whole/{system}/{lang}.jsonl``,
  made by :func:`translate_whole`: a stored system's published file read in full, Apertium
  run on every sentence, each line translated alone so the subset's lines are the same
  lines), aligned as the full run aligns them, the subset's rows read after. A subset's
  reading is then the full run's reading of the same items, exactly; the scoring stage
  checks that the whole file's lines at the subset's rows are the lines it scores.
* ``own`` (the default, and the only choice for a system that translated only the subset,
  such as an LLM): the subset's own lines as the corpus, as a full run of that subset would
  align them. With a few dozen pairs the links are poorer: the summary JSON and the tables
  say which corpus each system's figures rest on (``alignment_corpus``), so that no subset
  figure of an ``own`` system is compared with a full-set figure as if they were alike.

Without a subset the translations are the whole file and both choices are the same.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from gendermt.core.errors import GenderMTError

log = logging.getLogger(__name__)

CHOICES = ("whole", "own")
DEFAULT = "own"
#: The backends that can give a whole set's translations for alignment alone: a lookup in a
#: published file and a rule-based system that translates every line independently of its
#: batch, in about a minute a language. An LLM translated the subset only.
WHOLE_FILE_BACKENDS = frozenset({"stored", "apertium"})


KEY = "benchmarks.winomt.alignment_corpus"


def whole_inputs(results: str, whole: Sequence[str], systems: Any) -> Any:
    """Input function of a WinoMT scoring rule (winomt.smk): on a subset, the whole-set
    translations of those of ``systems(wildcards)`` aligned on their whole file (``whole``)
    and the whole set's data; nothing otherwise."""

    def inputs(wildcards: Any) -> dict[str, list[str]]:
        files = [f"{results}/winomt/whole/{s}/{wildcards.lang}.jsonl"
                 for s in systems(wildcards) if s in whole]
        return {"whole": files, "full": [f"{results}/winomt/data_full.parquet"] if files else []}

    return inputs


def corpus_of(alignment_corpus: Mapping[str, str] | None, system: str) -> str:
    """A system's alignment corpus (``whole`` or ``own``)."""
    choice = (alignment_corpus or {}).get(system, DEFAULT)
    if choice not in CHOICES:
        raise GenderMTError(f"{KEY}.{system}: {choice!r} is not one of {', '.join(CHOICES)}")
    return choice


def check(spec: Mapping[str, Any], config: Mapping[str, Any]) -> None:
    """The config check (the benchmark's ``check``): every system ``alignment_corpus`` names
    is one of the benchmark's, and one named ``whole`` has a backend that can translate the
    whole set for alignment."""
    corpus = spec.get("alignment_corpus") or {}
    for system in corpus:
        choice = corpus_of(corpus, system)
        if system not in spec.get("systems", []):
            raise GenderMTError(f"{KEY} names {system!r}, which is not one of the "
                                "benchmark's systems")
        backend = config.get("systems", {}).get(system, {}).get("backend")
        if choice == "whole" and backend not in WHOLE_FILE_BACKENDS:
            raise GenderMTError(
                f"{KEY}.{system}: whole needs the system's translations of the whole set, "
                f"which only a backend of {', '.join(sorted(WHOLE_FILE_BACKENDS))} gives for "
                f"alignment (backend {backend!r} translated the subset only: use own)")


def translate_whole(settings: dict[str, Any], data_path: str | Path, lang: str,
                    output: str | Path, postprocess: Sequence[str] = ()) -> None:
    """Workflow stage ``winomt_whole``: a system's translations of every item of the whole
    set (``data_full.parquet``) into ``lang``, one JSON line per item in item order
    (``item_id``, ``hypothesis``), post-processed as the run's translations are."""
    import pandas as pd

    from gendermt.core.backends import backend_class
    from gendermt.data.io import write_jsonl
    from gendermt.translation.backends import Request, build_backend
    from gendermt.translation.postprocess import pipeline

    cls = backend_class(settings)
    if cls.name not in WHOLE_FILE_BACKENDS:
        raise GenderMTError(f"backend {cls.name!r} cannot give a whole set's translations for "
                            "alignment (winomt.alignment_corpus: own)")
    data = pd.read_parquet(data_path)
    backend = build_backend(settings, data, {"benchmark": "winomt", "prompt": lang})
    size = int(settings.get("batch_size") or cls.default_batch_size)
    requests = [Request(str(i), s, [], "en", lang)
                for i, s in zip(data["item_id"], data["source"], strict=True)]
    extract = pipeline(postprocess)
    out: list[str] = []
    for start in range(0, len(requests), size):
        out += backend.translate(requests[start:start + size])
    write_jsonl(output, ({"item_id": r.item_id, "hypothesis": extract(h)}
                         for r, h in zip(requests, out, strict=True)))
    log.info("%s: %d translations of the whole set into %s for alignment", cls.name,
             len(out), lang)


def whole_lines(full: Any, subset: Any, whole: list[str], scored: list[str],
                path: str) -> list[int]:
    """The rows of the whole set that ``subset``'s items are (by ``item_id``), after checking
    that the whole file holds, at those rows, the lines the subset's figures score."""
    if len(whole) != len(full):
        raise GenderMTError(f"{path}: {len(whole)} translations for the whole set's "
                            f"{len(full)} items")
    row_of = {item: k for k, item in enumerate(full["item_id"])}
    missing = [i for i in subset["item_id"] if i not in row_of]
    if missing:
        raise GenderMTError(f"{path}: the whole set has no item {missing[0]!r} of the subset")
    rows = [row_of[i] for i in subset["item_id"]]
    differ = [i for i, r, line in zip(subset["item_id"], rows, scored, strict=True)
              if whole[r] != line]
    if differ:
        raise GenderMTError(
            f"{path}: {len(differ)} of the subset's {len(rows)} translations differ from the "
            f"whole file's lines of the same items (e.g. item {differ[0]!r}): the alignment "
            "would not be of the lines scored (a system whose output depends on its batch?)")
    return rows
