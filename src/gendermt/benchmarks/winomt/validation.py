"""Each WinoMT reader checked against people: agreement with human gender labels of
translated entities (``resources/winomt/labels/{lang}.tsv``, the project's sample;
``resources/winomt/people/{lang}.tsv``, the WinoMT authors' native-speaker annotators), per
language, with a Wilson 95 % interval and the confusion of label and reading.

A labels file is tab-separated with the columns :data:`LABEL_COLUMNS`; ``label`` is one of
:data:`LABELS` (what a person reads in the translation). The readers read the labelled
items from links made on the **whole** file of that system and language (fast_align learns
from the whole file: a subset aligned on its own gets other links), exactly as the full run
reads them. A reader's "unknown" agrees with the label "not found"; "male", "female" and
"neutral" with the same label.
"""

from __future__ import annotations

import csv
import json
import logging
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from gendermt.benchmarks.winomt import READERS
from gendermt.core.errors import DatasetError

log = logging.getLogger(__name__)

LABEL_COLUMNS = ["lang", "system", "item_id", "entity", "source", "translation", "label",
                 "note"]
LABELS = ("male", "female", "neutral", "not found")
# a reader's prediction as a label
AS_LABEL = {"male": "male", "female": "female", "neutral": "neutral", "unknown": "not found"}
CONFIDENCE = 0.95
TABLE_COLUMNS = ["lang", "reader", "n", "agree", "agreement", "ci_low", "ci_high",
                 "confusion", "systems", "n_sure", "agree_sure", "agreement_sure",
                 "ci_low_sure", "ci_high_sure"]
#: The optional column that marks the rows the annotator was unsure of (written down with
#: the labels, before any reader was compared with them): agreement is given on every row
#: and, beside it, on the rows the annotator was sure of.
UNCERTAIN = "uncertain"
#: The column that names a label set (``validation_label_sets``; ``gendermt winomt validate
#: --labels NAME=PATH``) in a table of several or of a named one.
LABEL_SET = "labels"


def item_key(value: object) -> str:
    """WinoMT's item id as data.parquet has it (``0030``): labels may write ``30``."""
    text = str(value).strip()
    return f"{int(text):04d}" if text.isdigit() else text


def read_labels(path: str | Path) -> pd.DataFrame:
    """One labels file, checked: every column there, every label one of :data:`LABELS`
    (an empty label is an error naming the file and row)."""
    path = Path(path)
    with path.open(encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f, delimiter="\t"))  # as the sampler writes (csv quoting)
    if not rows:
        raise DatasetError(path, "empty labels file")
    header = [h.strip() for h in rows[0]]
    missing = [c for c in LABEL_COLUMNS if c not in header]
    if missing:
        raise DatasetError(path, f"no column(s) {', '.join(missing)} (needs "
                                 f"{', '.join(LABEL_COLUMNS)})")
    records = []
    for n, row in enumerate(rows[1:], 2):  # row numbers as a spreadsheet shows them
        if not any(cell.strip() for cell in row):
            continue
        record = dict(zip(header, (c.strip() for c in row), strict=False))
        label = record.get("label", "")
        if not label:
            raise DatasetError(path, "empty label", row=n, column="label")
        if label not in LABELS:
            raise DatasetError(path, f"label {label!r} is not one of {', '.join(LABELS)}",
                               row=n, column="label")
        if not record.get("item_id"):
            raise DatasetError(path, "empty item_id", row=n, column="item_id")
        record["item_id"] = item_key(record["item_id"])
        record["row"] = n
        records.append(record)
    if not records:
        raise DatasetError(path, "no labelled rows")
    return pd.DataFrame(records)


def label_files(labels: str | Path) -> list[Path]:
    """``{lang}.tsv`` files of a folder, or the one file given."""
    labels = Path(labels)
    if labels.is_dir():
        files = sorted(labels.glob("*.tsv"))
        if not files:
            raise DatasetError(labels, "no labels file ({lang}.tsv) in this folder")
        return files
    if not labels.is_file():
        raise DatasetError(labels, "no such labels file or folder")
    return [labels]


def label_sets(specs: Sequence[str]) -> list[tuple[str | None, str]]:
    """``PATH`` or ``NAME=PATH`` of each label set (``--labels``) → (name or None, path);
    several sets must each be named, each name once."""
    out: list[tuple[str | None, str]] = []
    for spec in specs:
        name, sep, path = spec.partition("=")
        if not sep:
            name, path = None, spec
        elif not re.fullmatch(r"[a-z][a-z0-9_]*", name) or not path:
            raise DatasetError(f"--labels {spec!r}", "write NAME=PATH, NAME in a-z, 0-9 and _ "
                                                     "(e.g. people=resources/winomt/people)")
        out.append((name, path))
    names = [n for n, _ in out]
    if len(out) > 1 and (None in names or len(set(names)) < len(names)):
        raise DatasetError("--labels", "several sets: name each once, NAME=PATH (e.g. "
                           "project=resources/winomt/labels people=resources/winomt/people)")
    return out


def wilson(successes: int, n: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The Wilson score interval of a proportion (scipy's binomtest), in percent."""
    from scipy.stats import binomtest

    if n == 0:
        return float("nan"), float("nan")
    ci = binomtest(successes, n).proportion_ci(confidence_level=confidence, method="wilson")
    return 100 * ci.low, 100 * ci.high


def agreement(labels: pd.DataFrame, readings: Mapping[str, Sequence[str]]) -> pd.DataFrame:
    """Per language and reader: agreement of the readings (in ``labels``' row order) with the
    labels, n, the Wilson interval and the confusion (label → reading → count)."""
    rows = []
    for reader, predicted in readings.items():
        frame = labels.assign(read=[AS_LABEL[p] for p in predicted])
        for lang, part in frame.groupby("lang", sort=False):
            agree = int((part["read"] == part["label"]).sum())
            low, high = wilson(agree, len(part))
            sure = part[part[UNCERTAIN].fillna("").str.strip() == ""] \
                if UNCERTAIN in part else part
            agree_sure = int((sure["read"] == sure["label"]).sum())
            low_sure, high_sure = wilson(agree_sure, len(sure))
            confusion = {g: {r: int(c) for r, c in part[part["label"] == g]["read"]
                             .value_counts().items()}
                         for g in LABELS if (part["label"] == g).any()}
            rows.append({"lang": lang, "reader": reader, "n": len(part), "agree": agree,
                         "agreement": 100 * agree / len(part), "ci_low": low, "ci_high": high,
                         "confusion": confusion,
                         "systems": ",".join(sorted(set(part["system"]))),
                         "n_sure": len(sure), "agree_sure": agree_sure,
                         "agreement_sure": 100 * agree_sure / len(sure) if len(sure)
                         else float("nan"), "ci_low_sure": low_sure,
                         "ci_high_sure": high_sure})
    return pd.DataFrame(rows, columns=TABLE_COLUMNS)


def read_items(labels: pd.DataFrame, data: pd.DataFrame,
               hypotheses: Mapping[tuple[str, str], list[str]], readers: Sequence[str],
               alignment: dict[str, Any] | None = None, models=None) -> dict[str, list[str]]:
    """Each reader's reading of every labelled item, in ``labels``' order: each (system,
    language) file of ``hypotheses`` (in ``data``'s item order) is aligned and read whole,
    then the labelled items are picked."""
    from gendermt.benchmarks.winomt.evaluate import Models, predict

    unknown = [r for r in readers if r not in READERS]
    if unknown:
        raise ValueError(f"unknown WinoMT reader(s) {unknown}; known: {', '.join(READERS)}")
    models = models or Models()
    index = {item: k for k, item in enumerate(data["item_id"])}
    out: dict[str, list[str]] = {r: [""] * len(labels) for r in readers}
    for (system, lang), part in labels.groupby(["system", "lang"], sort=False):
        if (system, lang) not in hypotheses:
            raise DatasetError(f"labels of {lang}", f"no translations of system {system!r} "
                                                    f"into {lang!r} to read")
        hyps = hypotheses[system, lang]
        missing = [i for i in part["item_id"] if i not in index]
        if missing:
            raise DatasetError(f"labels of {lang}", f"item {missing[0]} is not a WinoMT item",
                               row=int(part[part["item_id"] == missing[0]]["row"].iloc[0]))
        for _, row in part.iterrows():
            if row["translation"] and _spaced(row["translation"]) != _spaced(
                    hyps[index[row["item_id"]]]):
                # the reading is of the system's file; a label copied from another line
                # would be checked against the wrong translation
                log.warning("labels of %s, row %s: the translation of item %s is not %s's "
                            "line", lang, row["row"], row["item_id"], system)
        for reader in readers:
            table, _ = predict(data, hyps, lang, alignment, reader, models)
            predicted = table["predicted"].tolist()
            for position, item in zip(part.index, part["item_id"], strict=True):
                out[reader][labels.index.get_loc(position)] = predicted[index[item]]
    return out


def _spaced(text: str) -> str:
    return " ".join(text.split())


def as_json(table: pd.DataFrame) -> dict[str, Any]:
    """``{lang: {reader: {n, agree, agreement, ci_low, ci_high, confusion}}}``."""
    out: dict[str, Any] = {}
    for _, row in table.iterrows():
        out.setdefault(row["lang"], {})[row["reader"]] = {
            k: row[k] for k in ("n", "agree", "agreement", "ci_low", "ci_high", "confusion",
                                "n_sure", "agree_sure", "agreement_sure", "ci_low_sure",
                                "ci_high_sure")}
    return out


def build_table(labels: Sequence[str | Path], runs: Sequence[Sequence[str]],
                readers: Sequence[str], tables: Sequence[str | Path],
                csv_path: str | Path, md: str | Path, name: str | None = None) -> None:
    """Workflow stage: the labels files + the run's per-sentence tables (``tables``: one per
    reader × run, ``readers`` outer; ``runs``: (system, language) of each; made on the whole
    file by the gender stage) → ``tables/validation.{csv,md}``. Labels of a system or
    language the run does not have, or of items outside its data (a subset), are left out
    and counted in the log; the table says which systems each language rests on. ``name``:
    a named label set's name (``validation_label_sets``), written in a last column
    ``labels``."""
    from gendermt.data.io import write_table

    if not labels:
        raise DatasetError(f"label set {name or 'validation_labels'}",
                           "no labels file ({lang}.tsv) in its folder")
    frame = pd.concat([read_labels(f) for f in labels], ignore_index=True)
    if len(tables) != len(readers) * len(runs):
        raise ValueError("one per-sentence table per reader and run")
    read: dict[tuple[str, str, str], dict[str, str]] = {}
    for k, path in enumerate(tables):
        reader, (system, lang) = readers[k // len(runs)], runs[k % len(runs)]
        part = pd.read_parquet(path, columns=["item_id", "predicted"])
        read[reader, system, lang] = dict(zip(part["item_id"].astype(str),
                                              part["predicted"], strict=True))
    first = readers[0]
    kept = frame[[(first, s, g) in read and i in read[first, s, g] for s, g, i in
                  zip(frame["system"], frame["lang"], frame["item_id"], strict=True)]]
    if len(kept) < len(frame):
        left = frame.drop(kept.index)
        log.info("%d of %d labels left out: not read in this run (%s)", len(left), len(frame),
                 ", ".join(f"{s}/{g}: {n}" for (s, g), n in
                           left.groupby(["system", "lang"]).size().items()))
    if kept.empty:
        raise DatasetError(", ".join(map(str, labels)), "no labelled item was read in this "
                           "run (its systems, languages or items are not the labels')")
    kept = kept.reset_index(drop=True)
    readings = {r: [read[r, s, g][i] for s, g, i in
                    zip(kept["system"], kept["lang"], kept["item_id"], strict=True)]
                for r in readers}
    table = agreement(kept, readings)
    table["confusion"] = table["confusion"].map(lambda c: json.dumps(c, sort_keys=True))
    if name is not None:
        table[LABEL_SET] = name
    write_table(table, csv_path, md, floatfmt=".1f")
