"""GATE's published files: the ``XX_{2,4,8}_variants.tsv`` tables and the JSON files.

The TSVs are tab-separated with a header and no BOM; the FR files have no ``data_split``.
GateEval.py reads them with Python's default ``csv`` quoting, which strips the quotes of
three ES_2 fields that start with ``"`` (rows 364, 383, 1313); ``quoting="gateeval"`` (the
default) reads them the same way, so that scores equal GateEval's, and ``quoting="none"``
keeps every field as published. GateEval silently skips rows whose field count differs from
the header's, and a field that opens a quote it never closes swallows the rows after it; the
published files have neither, so this loader stops at such a row, naming the file, the row
and the column, rather than drop rows without a word. Blank lines are skipped (and counted
in row numbers); a file with a header and no rows is an error.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

from gendermt.benchmarks.gate import LANGUAGES
from gendermt.core.errors import DatasetError, GenderMTError
from gendermt.data.textfiles import read_delimited, read_text

if TYPE_CHECKING:  # imported where used: the workflow imports this module to plan
    import pandas as pd

VARIANT_COLUMNS = {
    2: ["f", "m"],
    4: ["ff", "fm", "mf", "mm"],
    8: ["fff", "ffm", "fmf", "mff", "fmm", "mfm", "mmf", "mmm"],
}


def language_of(path: str | Path) -> str:
    match = re.match(r"(ES|FR|IT)_", Path(path).name)
    if not match:
        raise GenderMTError(f"{path}: cannot tell the language; GATE files are named "
                            "{ES,FR,IT}_{2,4,8}_variants.tsv or {ES,FR,IT}_compact.json")
    return LANGUAGES[match[1]]


def load_variants(path: str | Path, quoting: str = "gateeval") -> pd.DataFrame:
    """One row per kept data row: the header's columns, plus ``row`` (1-based data row),
    ``label_list`` (labels split on ``;``, duplicates removed) and ``n_variants``."""
    import pandas as pd

    path = Path(path)
    if quoting not in ("gateeval", "none"):
        raise GenderMTError(f"quoting must be 'gateeval' or 'none', not {quoting!r}")
    lines = read_delimited(path, "\t", quoting=csv.QUOTE_NONE if quoting == "none"
                           else csv.QUOTE_MINIMAL)
    if not lines:
        raise DatasetError(path, "the file is empty")
    header = lines[0][1]
    kind = next((n for n in (8, 4, 2) if all(c in header for c in VARIANT_COLUMNS[n])), None)
    for column in ("labels", "source"):
        if column not in header:
            raise DatasetError(path, f"no column {column!r}; GATE variant files start with "
                                     "labels, source", column=column)
    if kind is None:
        raise DatasetError(path, f"no variant columns (f/m, ff…mm or fff…mmm) in {header}")
    records = []
    for line, row in lines[1:]:
        number = line - 1  # data rows count from 1 after the header
        if not row:
            continue  # a blank line
        for column, field in zip(header, row, strict=False):
            if "\t" in field or "\n" in field or "\r" in field:
                raise DatasetError(path, "a field that starts with '\"' has no closing quote "
                                         "before the end of its field, so it swallows what "
                                         "follows (GateEval's csv quoting); remove the quote "
                                         "or close it", row=number, column=column)
        if len(row) != len(header):
            column = header[len(row)] if len(row) < len(header) else header[-1]
            extra = ("missing from here on" if len(row) < len(header)
                     else "followed by an extra tab-separated field")
            raise DatasetError(path, f"{len(row)} tab-separated fields where the header has "
                                     f"{len(header)} (column {column!r} {extra})",
                               row=number, column=column)
        record = dict(zip(header, row, strict=True))
        record["row"] = number
        records.append(record)
    if not records:
        raise DatasetError(path, "a header and no data rows")
    frame = pd.DataFrame.from_records(records, columns=[*header, "row"])
    frame["label_list"] = [list(dict.fromkeys(s.strip().split(";"))) for s in frame["labels"]]
    frame["n_variants"] = kind
    return frame


def load_json(path: str | Path) -> tuple[pd.DataFrame, list]:
    """``XX_compact.json`` / ``XX_readable.json``: one row per item of groups 2, 4, 8
    (``labels``, ``source``, ``kw_source``, ``kw_fem``, ``kw_masc``, ``variants``,
    ``n_variants``), and group ``"0"`` (the problem rows, raw lists) as it is."""
    import pandas as pd

    path = Path(path)
    try:
        data = json.loads(read_text(path))
        groups = data["gendered-variants"]
    except json.JSONDecodeError as exc:
        raise DatasetError(path, f"cannot read the JSON: {exc}") from exc
    except (KeyError, TypeError) as exc:
        raise DatasetError(path, "no 'gendered-variants' object at the top") from exc
    records = []
    for group in ("2", "4", "8"):
        for number, item in enumerate(groups.get(group, []), start=1):
            missing = [k for k in ("labels", "source", "variants") if k not in item]
            if missing:
                raise DatasetError(path, f"item {number} of group {group!r} lacks {missing}")
            records.append({**item, "n_variants": int(group)})
    return pd.DataFrame.from_records(records), list(groups.get("0", []))


def variant_files(root: str | Path, languages: list[str]) -> list[Path]:
    """``<root>/<XX>/<XX>_2_variants.tsv`` for each language code (ES, FR, IT)."""
    unknown = [lang for lang in languages if lang not in LANGUAGES]
    if unknown:
        raise GenderMTError(f"unknown GATE language(s) {unknown}; known: {', '.join(LANGUAGES)}")
    return [Path(root) / lang / f"{lang}_2_variants.tsv" for lang in languages]


def requests(frame: pd.DataFrame, language: str) -> pd.DataFrame:
    """Rewriting requests of a 2-variant file: each row in both directions, the feminine
    translation to be made masculine (``f2m``, scored as GateEval's ``--gender masculine``)
    and back (``m2f``)."""
    import pandas as pd

    records = []
    for row in frame.itertuples(index=False):
        for key, original, requested, reference in (("f2m", row.f, "masculine", row.m),
                                                    ("m2f", row.m, "feminine", row.f)):
            records.append({
                "item_id": f"{language}-{row.row:04d}-{key}", "language": language,
                "row": row.row, "src_lang": "en", "tgt_lang": language, "source": row.source,
                "original": original, "requested_gender": requested, "reference": reference,
                "labels": row.labels, "data_split": getattr(row, "data_split", ""),
                "oracle_output": reference, "unchanged_output": original})
    return pd.DataFrame.from_records(records)


def build(paths: list[str | Path], items_out: str | Path, provenance_out: str | Path) -> None:
    """Workflow stage: 2-variant TSVs → ``data.parquet`` (requests) + ``data.json``."""
    import pandas as pd

    from gendermt.data import reads
    from gendermt.data.io import write_json
    from gendermt.data.stage_tables import write_data_table

    with reads.recording():  # each file's hash taken as it is read (gendermt.data.reads)
        frames = [requests(load_variants(p), language_of(p)) for p in paths]
        files = [reads.identity(p) for p in paths]
    items = pd.concat(frames, ignore_index=True)
    write_data_table("gate", items_out, items)
    write_json(provenance_out, {
        "files": files,
        "requests": int(len(items)), "quoting": "gateeval",
    })
