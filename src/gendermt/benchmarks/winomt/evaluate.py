"""Score WinoMT translations: align, read the entity's gender, compute metrics.

Two readers (``readers:`` in the config, ``--reader`` on the command line):

* ``corrected`` (default): the project's tokenisation, links both directions agree on (of
  every word of a multi-word entity: *construction worker*), and the context-aware
  per-language reader of ``morphology.py``, which reads the head of the aligned phrase,
  reads "neutral" where nothing marks the gender of a known translation of the occupation
  and flags (``artefact``) an entity read from a word that does not translate it
  (``lexicon.py``);
* ``original``: the original tool's procedure (``original.py``): whitespace words, forward
  links of the entity and its article, the translated entity read on its own (de: by the
  nearest determiner), as mt_gender's code is now;
* ``published``: the same as the code was in 2019, when the paper's logs were written: an
  entity with no gendered word is neutral, not unknown (fr, es, it; he and ar: nothing
  aligned is female and male, not unknown).

ru, uk, he, ar have the original procedure only (``pymorph.py``, ``semitic.py``): there
``corrected`` runs ``original`` (``winomt.procedure``), alignment included, and its
signature says so.

``original`` and ``published`` round their metrics as the original does
(``metric.compute(rounded=True)``).

Workflow stage ``winomt_gender``: one job per target language scores every system's
``translations/{system}/{lang}.jsonl`` with every reader, loading spaCy once and aligning
each file once per tokenisation → ``gender/{reader}/{system}/{lang}.parquet`` (+ ``.csv``)
and its metrics (``.json``). On a study's subset, a system with a whole file
(``whole_file.py``: ``alignment_corpus: whole``) is aligned on the whole set and its subset
rows read after, so that its figures are the full run's reading of the same items; the
summary names the corpus (``alignment_corpus``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from gendermt.benchmarks.winomt import (
    DEFAULT_READER,
    LANGUAGES,
    ORIGINAL_READERS,
    READERS,
    procedure,
)
from gendermt.benchmarks.winomt.align import (
    align_pairs,
    aligner_of,
    entity_positions,
    fast_align_words,
    linked_targets,
    source_words,
    tokenize,
)
from gendermt.benchmarks.winomt.lexicon import Lexicon
from gendermt.benchmarks.winomt.lexicon import load as load_lexicon
from gendermt.benchmarks.winomt.metric import compute
from gendermt.benchmarks.winomt.morphology import FrenchMorphology, read_genders
from gendermt.benchmarks.winomt.original import (
    morphology_label,
    morphology_of,
    read_original,
    source_indices,
    translated_entity,
)
from gendermt.benchmarks.winomt.spacy_models import load_pipeline
from gendermt.benchmarks.winomt.whole_file import whole_lines
from gendermt.data.io import read_jsonl, write_json, write_parquet, write_table

log = logging.getLogger(__name__)

class Models:
    """What a job loads once and every file reuses (spaCy's pipelines)."""

    def __init__(self, lexicon: str | None = None) -> None:
        self._french: FrenchMorphology | None = None
        self._pipelines: dict[str, Any] = {}
        self._lexicon_path = lexicon
        self._lexicon: Lexicon | None = None

    def lexicon(self) -> Lexicon:
        """The corrected reader's known translations of each occupation (lexicon.py; the
        shipped one where no path was given)."""
        if self._lexicon is None:
            self._lexicon = load_lexicon(self._lexicon_path)
        return self._lexicon

    def french(self) -> FrenchMorphology:
        if self._french is None:
            self._french = FrenchMorphology()
        return self._french

    def pipeline(self, lang: str):
        """spaCy's pipeline of ``lang`` for the original readers (French: the one
        ``french()`` holds)."""
        if lang == "fr":
            return self.french().nlp
        if lang not in self._pipelines:
            self._pipelines[lang] = load_pipeline(lang)
        return self._pipelines[lang]


# The readers that share a tokenisation share its alignment.
TOKENISATION = {"corrected": "corrected", "original": "whitespace", "published": "whitespace"}


@dataclass(frozen=True)
class Links:
    """Where each item's entity went in one file of translations, under one tokenisation:
    its target positions and those words joined, and the seconds aligning took. (Not the
    tokens: a job keeps every file's links while spaCy reads them, and a file's tokens are
    8.7 MB against 0.04 s to make them again.)"""

    positions: list[list[int]]
    aligned: list[str]
    seconds: float


def align_file(data: pd.DataFrame, hypotheses: list[str], reader: str = DEFAULT_READER,
               alignment: dict[str, Any] | None = None) -> Links:
    """Align one file of translations to the English sentences, in ``reader``'s tokenisation
    (see the module docstring), and find the entity's target words."""
    if reader not in READERS:
        raise ValueError(f"unknown WinoMT reader {reader!r}; known: {', '.join(READERS)}")
    t0 = time.perf_counter()
    if TOKENISATION[reader] == "corrected":
        src = [source_words(s, i, e)[0] for s, i, e in
               zip(data["source"], data["entity_index"], data["entity"], strict=True)]
        # every word of the entity: "construction worker" → trabajador de la construcción
        # needs both words' links to find the phrase's head (the aligner links the head,
        # worker, by position, to construcción)
        entity = [entity_positions(s, i, e) for s, i, e in
                  zip(data["source"], data["entity_index"], data["entity"], strict=True)]
        tgt = [tokenize(h) for h in hypotheses]
        fwd, rev = align_pairs(src, [[t.text for t in t] for t in tgt], alignment)
        positions = [sorted(set().union(*(linked_targets(f, r, p) for p in ps)))
                     for f, r, ps in zip(fwd, rev, entity, strict=True)]
        aligned = [" ".join(t[k].text for k in p) for t, p in zip(tgt, positions, strict=True)]
    else:
        # as the original: forward links of whitespace words, split as fast_align splits
        # them (space and tab); the links then index the translation's Python ``split()``
        # words, as load_alignments.py does (the two differ at a no-break space)
        fwd, _ = align_pairs([fast_align_words(s) for s in data["source"]],
                             [fast_align_words(h) for h in hypotheses], alignment,
                             forward_only=True)
        spans = [translated_entity(f, source_indices(s, i), h.split()) for f, s, i, h in
                 zip(fwd, data["source"], data["entity_index"], hypotheses, strict=True)]
        positions = [p for p, _ in spans]
        aligned = [a for _, a in spans]
    return Links(positions, aligned, time.perf_counter() - t0)


def predict(data: pd.DataFrame, hypotheses: list[str], lang: str,
            alignment: dict[str, Any] | None = None, reader: str = DEFAULT_READER,
            models: Models | None = None, morphology: dict[str, str] | None = None,
            links: Links | None = None) -> tuple[pd.DataFrame, dict[str, Any]]:
    """The per-sentence table (gold, predicted gender, aligned words, evidence) of one
    system's translations, in item order, and facts about how it was made. ``morphology``
    (language → spacy|rules): where the original/published readers' token genders come
    from (original.DEFAULT_MORPHOLOGY where not given; the corrected reader has its own).
    ``links``: this file's :func:`align_file` in ``reader``'s tokenisation, when already
    made (aligned here otherwise)."""
    if len(hypotheses) != len(data):
        raise ValueError(f"{len(hypotheses)} translations for {len(data)} items")
    if reader not in READERS:
        raise ValueError(f"unknown WinoMT reader {reader!r}; known: {', '.join(READERS)}")
    models = models or Models()
    aligner, settings = aligner_of(alignment)
    # ru, uk, he, ar: the default reader runs the original procedure (ORIGINAL_DEFAULT_...)
    runs = procedure(reader, lang)
    links = links or align_file(data, hypotheses, runs, alignment)
    if len(links.positions) != len(data):
        raise ValueError(f"links of {len(links.positions)} items for {len(data)}")
    t1 = time.perf_counter()
    if runs == "corrected":
        readings, version = read_genders(lang, hypotheses, [tokenize(h) for h in hypotheses],
                                          links.positions,
                                          french=models.french() if lang == "fr" else None,
                                          occupations=list(data["entity"]),
                                          lexicon=models.lexicon())
    else:
        chosen = morphology_of(lang, morphology)
        readings, version = read_original(
            lang, list(data["entity"]), links.aligned, hypotheses, links.positions,
            reader=runs, morphology=chosen,
            nlp=models.pipeline(lang) if chosen == "spacy" else None)
        if runs != reader:
            version = (f"{reader}-{lang} = {version}: no corrected reader for {lang} yet "
                       f"(no head-noun rule, neutral reading or artefact flag)")
    timing = {"align_s": links.seconds, "gender_s": time.perf_counter() - t1}
    table = data[["item_id", "gold", "stereotype", "entity", "source"]].copy()
    table["translation"] = hypotheses
    table["aligned"] = links.aligned
    table["predicted"] = [r.gender for r in readings]
    table["evidence"] = [r.evidence for r in readings]
    table["correct"] = table["gold"] == table["predicted"]
    if runs == "corrected":
        # the word read as the entity, and whether it translates the occupation (lexicon.py)
        table["head"] = [r.head for r in readings]
        table["artefact"] = [r.artefact for r in readings]
    facts = {"reader": reader, "reader_version": version, "aligner": aligner,
             "alignment": settings}
    if runs == "corrected":
        facts["artefacts"] = int(table["artefact"].sum())
    if runs != "corrected":
        chosen = morphology_of(lang, morphology)
        facts["morphology"] = morphology_label(
            lang, chosen, models.pipeline(lang) if chosen == "spacy" else None)
    return table, {**facts, **timing}


def subset_links(full: pd.DataFrame, whole: list[str], rows: list[int], reader: str,
                 alignment: dict[str, Any] | None) -> Links:
    """The links of the items at ``rows`` of the whole set, from the alignment of the whole
    file (``whole``: one translation per item of ``full``), as the full run makes them."""
    made = align_file(full, whole, reader, alignment)
    return Links([made.positions[r] for r in rows], [made.aligned[r] for r in rows],
                 made.seconds)


def corpus_record(data: pd.DataFrame, full: pd.DataFrame | None, whole: bool) -> dict:
    """What a system's links were learnt from, for its summary: ``whole`` (the whole set's
    file, the subset read after) or ``own`` (the scored lines themselves)."""
    if whole and full is not None:
        return {"corpus": "whole", "pairs": len(full), "items": len(data)}
    return {"corpus": "own", "pairs": len(data), "items": len(data)}


def _whole_files(data: pd.DataFrame, hyps_of: dict[str, list[str]],
                 whole: dict[str, str] | None, full_data_path: str | None
                 ) -> tuple[pd.DataFrame | None, dict[str, tuple[list[str], list[int]]]]:
    """The whole set's data and, per whole-file system, its whole file and the subset's rows
    in it (checked to hold the lines scored)."""
    if not whole:
        return None, {}
    if full_data_path is None:
        raise ValueError("whole files need the whole set's data (full_data_path)")
    full = pd.read_parquet(full_data_path)
    rows_of = {}
    for system, path in whole.items():
        if system not in hyps_of:
            raise ValueError(f"a whole file for {system!r}, which this job does not score")
        lines = _hypotheses(full, path)
        rows_of[system] = lines, whole_lines(full, data, lines, hyps_of[system], path)
    return full, rows_of


def _hypotheses(data: pd.DataFrame, path: str) -> list[str]:
    """One system's translations, in ``data``'s item order."""
    records = {r["item_id"]: r["hypothesis"] for r in read_jsonl(path)}
    missing = [i for i in data["item_id"] if i not in records]
    if missing:
        raise ValueError(f"{path}: no translation of {len(missing)} items, e.g. {missing[0]}")
    return [records[i] for i in data["item_id"]]


def score_run(lang: str, systems: Sequence[str], translations: Sequence[str],
                   data_path: str, alignment: dict[str, Any], readers: Sequence[str],
                   tables: Sequence[str], csvs: Sequence[str], summaries: Sequence[str],
                   morphology: dict[str, str] | None = None, lexicon: str | None = None,
                   whole: dict[str, str] | None = None,
                   full_data_path: str | None = None) -> None:
    """Workflow stage (see the module docstring): ``tables``, ``csvs``, ``summaries`` are in
    the order reader × system (``readers`` outer); ``lexicon``: the corrected reader's
    occupation translations (lexicon.py; default the shipped one). ``whole``: system → its
    translations of the whole set (``full_data_path``'s items), for the systems aligned on
    the whole file (``whole_file.py``); the others are aligned on their own lines."""
    if lang not in LANGUAGES:
        raise ValueError(f"WinoMT prompts are named by target language ({', '.join(LANGUAGES)}); "
                         f"got {lang!r}")
    if len(systems) != len(translations):
        raise ValueError("one translations file per system")
    if not len(tables) == len(csvs) == len(summaries) == len(readers) * len(systems):
        raise ValueError("one output per reader and system")
    data = pd.read_parquet(data_path)
    models = Models(lexicon)
    hyps_of = {system: _hypotheses(data, path)
               for system, path in zip(systems, translations, strict=True)}
    full, rows_of = _whole_files(data, hyps_of, whole, full_data_path)
    pairs = [(reader, system) for reader in readers for system in systems]
    for (reader, system), summary in zip(pairs, summaries, strict=True):
        if f"/{reader}/{system}/" not in str(summary).replace("\\", "/"):
            raise ValueError(f"output {summary} is not {reader}/{system}'s: outputs must be "
                             "in the order reader × system")
    # every file aligned first, once per tokenisation: alignment's memory is then free
    # before spaCy loads (the reading needs only the links)
    links: dict[tuple[str, str], Links] = {}
    for reader, system in pairs:
        runs = procedure(reader, lang)
        key = TOKENISATION[runs], system
        if key not in links:
            links[key] = (subset_links(full, *rows_of[system], runs, alignment)
                          if system in rows_of else
                          align_file(data, hyps_of[system], runs, alignment))
            log.info("%s %s aligned (%s words) in %.1f s", system, lang, key[0],
                     links[key].seconds)
    for k, (reader, system) in enumerate(pairs):
        t0 = time.perf_counter()
        made = links[TOKENISATION[procedure(reader, lang)], system]
        table, facts = predict(data, hyps_of[system], lang, alignment, reader, models,
                               morphology, made)
        # the alignment's seconds count in each reader that shares it
        seconds = made.seconds + time.perf_counter() - t0
        metrics = compute(table, rounded=reader in ORIGINAL_READERS)
        log.info("%s %s (%s reader): acc %.1f, ΔG %.1f, ΔS %s in %.1f s", system, lang,
                 reader, metrics["acc"], metrics["delta_g"],
                 f"{metrics['delta_s']:.1f}" if "delta_s" in metrics else "-", seconds)
        table = table.assign(system=system, lang=lang, reader=reader)
        write_parquet(tables[k], table)
        write_table(table, csvs[k])
        write_json(summaries[k], {"system": system, "lang": lang, **metrics, **facts,
                                  "alignment_corpus": corpus_record(data, full,
                                                                    system in rows_of),
                                  "seconds": seconds})
