"""The detect stage: translations → gender assignments, one row per text × occupation.

``translations/{system}/{lang}.jsonl`` (``item_id``, ``hypothesis``) + ``data.parquet``
(``item_id``, ``isco``: the source text's occupation, the candidate) + ``isco.parquet`` →
``assignments/{detector}/{system}/{lang}.csv`` and its JSON summary, with the configured
detector (``kind: lexicon`` or ``kind: llm-judge``). Texts with no detected occupation have
no row; the summary counts them, and the occupations each filter dropped.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from gendermt.benchmarks.gambit import lexicon
from gendermt.benchmarks.gambit.labels import LABELS
from gendermt.core.errors import DatasetError, GenderMTError
from gendermt.data.io import read_jsonl, write_json, write_table

log = logging.getLogger(__name__)

COLUMNS = ["text_id", "isco", "label", "title", "occurrence", "description", "match_score",
           "similarity", "detector"]
DROPS = ("fuzzy", "embedding", "not_candidate", "unparsable")
KINDS = ("lexicon", "llm-judge")


def run_detector(texts: Mapping[str, str], candidates: Mapping[str, list[str]], lang: str,
                 detector: dict[str, Any], isco: pd.DataFrame | None = None,
                 data: pd.DataFrame | None = None, cache_dir: str | Path | None = None,
                 systems: Mapping[str, Any] | None = None
                 ) -> tuple[pd.DataFrame, Counter, dict[str, Any]]:
    """Run the configured detector over ``texts`` (id → text) with each text's candidate
    ISCO codes: ``(assignments in COLUMNS, dropped counts, settings)``."""
    kind = detector.get("kind")
    if kind == "lexicon":
        rows, dropped, settings = lexicon.detect(texts, candidates, lang, detector)
    elif kind == "llm-judge":
        from gendermt.benchmarks.gambit import judge

        if isco is None:
            raise GenderMTError("the GAMBIT judge needs the ISCO-08 file (its descriptions)")
        frame = data if data is not None else pd.DataFrame(
            {"item_id": list(texts), "source": list(texts.values())})
        rows, dropped, settings = judge.detect(texts, candidates, lang, detector, isco, frame,
                                               cache_dir, systems)
    else:
        raise GenderMTError(f"unknown GAMBIT detector kind {kind!r}; use one of "
                            f"{', '.join(KINDS)}")
    name = str(detector.get("name") or kind)
    frame = pd.DataFrame(rows, columns=[c for c in COLUMNS if c != "detector"])
    frame["detector"] = name
    frame["isco"] = frame["isco"].astype(str)
    return frame[COLUMNS], dropped, {"name": name, **settings}


def read_isco(path: str | Path | None) -> pd.DataFrame | None:
    """``isco.parquet`` (``code``, ``level``, ``title``, ``definition`` …), codes as str."""
    if path is None:
        return None
    frame = pd.read_parquet(path)
    missing = {"code", "title", "definition"} - set(frame.columns)
    if missing:
        raise DatasetError(path, f"missing column(s) {sorted(missing)}")
    frame["code"] = frame["code"].astype(str)
    return frame


def summarise(assignments: pd.DataFrame, n_texts: int, dropped: Counter, name: str,
              settings: dict[str, Any]) -> dict[str, Any]:
    counts = assignments["label"].value_counts()
    return {"detector": name, "settings": settings, "n_texts": n_texts,
            "n_texts_with_assignment": int(assignments["text_id"].nunique()),
            "n_assignments": len(assignments),
            "labels": {label: int(counts.get(label, 0)) for label in LABELS},
            "dropped": {key: int(dropped.get(key, 0)) for key in DROPS}}


def score_run(translations: str | Path, data: str | Path, isco: str | Path | None,
                lang: str, detector: dict[str, Any], output_csv: str | Path,
                output_json: str | Path, cache_dir: str | Path | None = None,
                systems: dict[str, Any] | None = None) -> dict[str, Any]:
    """Workflow stage: one system's translations into ``lang`` → assignments CSV + summary
    JSON (both written atomically). Returns the summary."""
    records = read_jsonl(translations)
    source = pd.read_parquet(data)
    for column in ("item_id", "isco"):
        if column not in source.columns:
            raise DatasetError(data, f"missing column {column!r}")
    codes = dict(zip(source["item_id"].astype(str), source["isco"].astype(str), strict=True))
    texts: dict[str, str] = {}
    for row_no, rec in enumerate(records, start=1):
        item = str(rec.get("item_id", ""))
        if item not in codes:
            raise DatasetError(translations, f"item {item!r} is not in {data}", row=row_no,
                               column="item_id")
        hypothesis = rec.get("hypothesis")
        texts[item] = hypothesis if isinstance(hypothesis, str) else ""
    candidates = {item: [codes[item]] for item in texts}
    frame, dropped, settings = run_detector(texts, candidates, lang, detector,
                                            read_isco(isco), source, cache_dir, systems)
    summary = summarise(frame, len(texts), dropped, settings["name"], settings)
    write_table(frame, output_csv)
    write_json(output_json, summary)
    log.info("%s (%s): %d assignments in %d of %d texts; labels %s; dropped %s",
             translations, settings["name"], summary["n_assignments"],
             summary["n_texts_with_assignment"], len(texts), summary["labels"],
             summary["dropped"])
    return summary
