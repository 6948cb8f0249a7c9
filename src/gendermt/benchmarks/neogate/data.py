"""Read Neo-GATE's published TSV files and adapt them to neomorpheme paradigms.

Format (``datasets.md`` §2.3; HF ``FBK-MT/Neo-GATE``, ``Neo-GATE.tsv`` and ``Neo-GATE-dev.tsv``):
tab-separated, a header row ``# GATE-ID SOURCE REF-M REF-F REF-TAGGED ANNOTATION`` (before
the dataset's "Header fix" commit the second column was ``ID``; both are read), one entry per
line. Fields are read literally (no CSV quoting: a ``"`` is text). The first release's single
file with a ``SPLIT`` column is read too: the rows of the requested split are kept.

The study's data table has one row per entry: ``item_id`` (``neogate-<#>``), ``number`` (#),
``gate_id``, ``source``, ``ref_male``, ``ref_female``, ``ref_tagged``, ``annotation_tagged``,
and per paradigm ``ref_<paradigm>`` (the adapted tagged reference) and
``annotation_<paradigm>``; plus the annotation counts of the paper's Table 3.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Mapping
from pathlib import Path

import pandas as pd

from gendermt.benchmarks.neogate import COLUMNS, HUB_ID
from gendermt.benchmarks.neogate.metric import AnnotationError, parse_annotations
from gendermt.benchmarks.neogate.paradigm import (
    TAG,
    adapt,
    check_covers,
    load_mapping,
    paradigm_neomorphemes,
)
from gendermt.core.errors import DatasetError, MissingResourceError
from gendermt.data.io import write_json, write_parquet
from gendermt.data.stage_tables import write_data_table
from gendermt.data.textfiles import is_blank, read_delimited

log = logging.getLogger(__name__)

OLD_ID_COLUMN = "ID"  # the name of GATE-ID before the dataset's "Header fix" commit


def read_tsv(path: str | Path, split: str = "test") -> pd.DataFrame:
    """Read one published file, checking its header, field counts, ids and annotations.

    Rows are numbered from 1, not counting the header, in every error message.
    """
    path = Path(path)
    if not path.is_file():
        raise MissingResourceError(
            f"Neo-GATE file {path} does not exist. Download Neo-GATE.tsv and Neo-GATE-dev.tsv "
            f"from the Hugging Face dataset {HUB_ID} and point benchmarks.neogate.data.test / "
            ".dev at them (or use resources/neogate/, the project's sample).")
    lines = read_delimited(path, "\t")
    if not lines:
        raise DatasetError(path, "the file is empty (no header row)")
    header = [h.strip() for h in lines[0][1]]
    header = ["GATE-ID" if h == OLD_ID_COLUMN else h for h in header]
    missing = [c for c in COLUMNS if c not in header]
    if missing:
        raise DatasetError(path, "missing from the header (found: "
                                 f"{', '.join(header)}; expected tab-separated "
                                 f"{', '.join(COLUMNS)})", column=missing[0])
    rows = []
    for line, fields in lines[1:]:
        number = line - 1  # rows count from 1 after the header, blank lines included
        if not fields or fields == [""]:
            continue  # a blank line (e.g. a second trailing newline)
        if len(fields) != len(header):
            raise DatasetError(path, f"{len(fields)} tab-separated fields, the header has "
                                     f"{len(header)}", row=number)
        rows.append((number, dict(zip(header, fields, strict=True))))
    if "SPLIT" in header:
        rows = [(n, r) for n, r in rows if r["SPLIT"].strip() == split]
    if not rows:
        raise DatasetError(path, f"no {split} rows")
    seen: dict[int, int] = {}
    for number, row in rows:
        for column in COLUMNS:
            if is_blank(row[column]):
                raise DatasetError(path, "empty field", row=number, column=column)
        ident = row["#"].strip()
        # ASCII digits only: str.isdigit() accepts '²', which int() then refuses
        if not re.fullmatch(r"[0-9]+", ident):
            raise DatasetError(path, f"the id {ident!r} is not a number", row=number,
                               column="#")
        # `3` and `03` name the same entry (item ids are built from the number)
        if int(ident) in seen:
            raise DatasetError(path, f"duplicated id {ident} (the same number as the id of "
                                     f"row {seen[int(ident)]})", row=number, column="#")
        seen[int(ident)] = number
        try:
            parse_annotations(row["ANNOTATION"])
        except AnnotationError as exc:
            raise DatasetError(path, str(exc), row=number, column="ANNOTATION") from None
    frame = pd.DataFrame([r for _, r in rows])[list(COLUMNS)]
    frame.insert(0, "row", [n for n, _ in rows])
    return frame


def annotation_stats(annotations: pd.Series) -> dict[str, int]:
    """Table 3's counts: annotated words (tags), content / function, singular / plural.

    An entry is plural when the tag of its neomorphemic form ends in ``P`` (``<ENDP>``,
    ``<DARTP>``…), singular otherwise (``S`` tags and ``<IART>``, the singular indefinite
    article).
    """
    stats = {"entries": len(annotations), "tags": 0, "content": 0, "function": 0,
             "singular": 0, "plural": 0}
    for text in annotations:
        for ann in parse_annotations(text):
            stats["tags"] += 1
            stats["function" if ann.is_function_word else "content"] += 1
            tags = TAG.findall(ann.correct)
            stats["plural" if tags and tags[-1].endswith("P>") else "singular"] += 1
    return stats


def to_data_table(frame: pd.DataFrame, path: str | Path,
                  mappings: Mapping[str, Mapping[str, str]]) -> pd.DataFrame:
    """The study's table: one row per entry, with every paradigm's adaptation."""
    data = pd.DataFrame({
        "item_id": "neogate-" + frame["#"].str.strip(),
        "number": frame["#"].str.strip().astype(int),
        "gate_id": frame["GATE-ID"].str.strip(),
        "row": frame["row"],
        "src_lang": "en",
        "tgt_lang": "it",
        "source": frame["SOURCE"],
        "ref_male": frame["REF-M"],
        "ref_female": frame["REF-F"],
        "ref_tagged": frame["REF-TAGGED"],
        "annotation_tagged": frame["ANNOTATION"],
    })
    for name, mapping in mappings.items():
        check_covers(mapping, ((r, c, t) for c, col in (("REF-TAGGED", "ref_tagged"),
                                                         ("ANNOTATION", "annotation_tagged"))
                               for r, t in zip(data["row"], data[col], strict=True)),
                     path, name)
        data[f"ref_{name}"] = [adapt(t, mapping, capitalise_initial=True)
                               for t in data["ref_tagged"]]
        data[f"annotation_{name}"] = [adapt(t, mapping) for t in data["annotation_tagged"]]
        for row, text in zip(data["row"], data[f"annotation_{name}"], strict=True):
            try:
                parse_annotations(text)
            except AnnotationError as exc:  # check_mapping rules this out; kept as a guard
                raise DatasetError(path, f"after adaptation to {name}: {exc}", row=int(row),
                                   column="ANNOTATION") from None
    return data


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def load(path: str | Path, mappings: Mapping[str, Mapping[str, str]], split: str = "test"
         ) -> pd.DataFrame:
    return to_data_table(read_tsv(path, split), path, mappings)


def build(test: str | Path, dev: str | Path, paradigms: Mapping[str, Mapping[str, str]],
          data_out: str | Path, dev_out: str | Path, provenance_out: str | Path) -> None:
    """Workflow stage: published test + dev files and the paradigms' mappings →
    ``data.parquet``, ``dev.parquet`` and ``data.json`` (checksums, counts, paradigms)."""
    mappings = {name: load_mapping(spec["mapping"]) for name, spec in paradigms.items()}
    data = load(test, mappings, "test")
    dev_data = load(dev, mappings, "dev")
    overlap = set(data["number"]) & set(dev_data["number"])  # `3` and `03` alike
    if overlap:
        raise DatasetError(dev, f"ids also in the test file {test}: {sorted(overlap)[:5]}")
    log.info("Neo-GATE: %d test and %d dev entries, paradigms %s", len(data), len(dev_data),
             ", ".join(mappings))
    write_data_table("neogate", data_out, data)
    write_parquet(dev_out, dev_data)
    write_json(provenance_out, {
        "test": {"path": str(test), "size": Path(test).stat().st_size,
                 "sha256": _sha256(Path(test)),
                 **annotation_stats(data["annotation_tagged"])},
        "dev": {"path": str(dev), "size": Path(dev).stat().st_size, "sha256": _sha256(Path(dev)),
                **annotation_stats(dev_data["annotation_tagged"])},
        "paradigms": {name: {"mapping": str(paradigms[name]["mapping"]),
                             "size": Path(paradigms[name]["mapping"]).stat().st_size,
                             "sha256": _sha256(Path(paradigms[name]["mapping"])),
                             "neomorphemes": paradigm_neomorphemes(
                                 name, mapping, paradigms[name].get("neomorphemes")),
                             "forms": mapping}
                      for name, mapping in mappings.items()},
    })
