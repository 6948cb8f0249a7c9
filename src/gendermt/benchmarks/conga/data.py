"""Read gENder-IT's published table and turn it into the study's data table.

The table (see the shared ``datasets.md`` §5.1; the README is the only published description,
the file itself could not be seen here) has 16 columns, A–P:

====  ======================================================  =================================
col   header                                                  content
====  ======================================================  =================================
A     ``ID``                                                  sentence id (``split it-0239`` …)
B     ``ENGLISH``                                             English with ``<M>/<F>/<A#>`` tags
C     ``ONE CORRECT (GENDER) TRANSLATION (original MuST-SHE)`` the one Italian translation
D–M   ``MULTIPLE CORRECT GENDER TRANSLATIONS`` (D; E–M as     gender alternatives, up to 10
      exported: blank, repeated, or ``Unnamed: n``)
N     ``Number of Alternatives``                              2, 4, 8 …
O     ``Type of Alternatives``                                ``MM - MF - FF - FM``
P     ``Ambiguous Referent``                                  ``<A2>, <A3>``
====  ======================================================  =================================

Read: CSV or TSV (the separator is sniffed from the header), and ``.xlsx`` when openpyxl is
installed (it is not a dependency: export the sheet to CSV/TSV otherwise). Columns are found
by header (case and spacing ignored) or, with ``columns="positional"``, by position A–P,
for copies whose headers differ. Because the file format is unverified, both are options.

Data table columns: ``item_id`` (column A), ``source`` (English without tags, what systems
translate), ``source_tagged`` (column B, the gold), ``reference`` (C, else the first
alternative), ``ref_single`` (C), ``ref_alt_1`` … ``ref_alt_10`` (D–M), ``ref_first`` /
``ref_last`` (C, else the first / last alternative: what the default run's oracles return),
``n_alternatives``, ``alternative_types``, ``ambiguous_referents``, ``row``.
"""

from __future__ import annotations

import hashlib
import logging
import re
from pathlib import Path
from typing import Any

import pandas as pd

from gendermt.benchmarks.conga.tags import TagError, TagScheme, parse_tagged
from gendermt.core.errors import DatasetError, MissingResourceError
from gendermt.data.io import write_json
from gendermt.data.stage_tables import write_data_table
from gendermt.data.textfiles import is_blank

log = logging.getLogger(__name__)

HEADERS = {
    "id": "ID",
    "english": "ENGLISH",
    "single": "ONE CORRECT (GENDER) TRANSLATION (original MuST-SHE)",
    "alternatives": "MULTIPLE CORRECT GENDER TRANSLATIONS",
    "n_alternatives": "Number of Alternatives",
    "types": "Type of Alternatives",
    "ambiguous": "Ambiguous Referent",
}
N_ALTERNATIVES = 10  # columns D–M
LETTERS = "ABCDEFGHIJKLMNOP"
ALT_LETTERS = LETTERS[3:13]


def _key(header: object) -> str:
    return " ".join(str(header).split()).casefold()


def read_table(path: str | Path, fmt: str = "auto") -> pd.DataFrame:
    """The raw sheet as strings (empty cells as ""), header kept as pandas reads it."""
    path = Path(path)
    if not path.is_file():
        raise MissingResourceError(
            f"gENder-IT table {path} does not exist. gENder-IT (CC BY-NC-ND 3.0) is "
            "distributed through the Google Drive folder linked from github.com/vnmssnhv/"
            "gENder-IT; download it, export the sheet to CSV/TSV (or keep the .xlsx if "
            "openpyxl is installed) and point benchmarks.conga.data.path at it.")
    fmt = fmt if fmt != "auto" else {".xlsx": "xlsx", ".tsv": "tsv"}.get(path.suffix.lower(),
                                                                        "csv")
    if fmt == "xlsx":
        try:
            import openpyxl  # noqa: F401
        except ImportError as exc:
            raise MissingResourceError(
                f"{path}: reading .xlsx needs openpyxl (pip install openpyxl), which gendermt "
                "does not install; or export the sheet as CSV/TSV") from exc
        frame = pd.read_excel(path, dtype=str, keep_default_na=False)
    else:
        try:
            with path.open(encoding="utf-8-sig") as fh:
                header = fh.readline()
        except UnicodeDecodeError as exc:
            raise DatasetError(path, f"not UTF-8 text: {exc}") from exc
        sep = "\t" if (fmt == "tsv" or "\t" in header) else ("," if header.count(",") >=
                                                             header.count(";") else ";")
        try:
            # blank lines kept (as empty rows, skipped below), so that row numbers count them
            frame = pd.read_csv(path, sep=sep, dtype=str, keep_default_na=False,
                                encoding="utf-8-sig", quotechar='"', skip_blank_lines=False)
        except pd.errors.EmptyDataError as exc:
            raise DatasetError(path, "the file is empty (no header row)") from exc
        except pd.errors.ParserError as exc:
            raise DatasetError(path, f"not a readable {sep!r}-separated table: {exc}") from exc
        except UnicodeDecodeError as exc:  # past the header
            raise DatasetError(path, f"not UTF-8 text: {exc}") from None
    return frame.fillna("")


def locate_columns(frame: pd.DataFrame, path: str | Path, columns: str = "names"
                   ) -> dict[str, Any]:
    """Map each field to a column label (``alternatives``: a list of up to 10 labels)."""
    labels = list(frame.columns)
    if columns == "positional":
        if len(labels) < 3:
            raise DatasetError(path, f"{len(labels)} columns; columns A (ID), B (ENGLISH) and "
                                     "C (one correct translation) at least are needed")
        at = dict(zip(LETTERS, labels, strict=False))
        return {"id": at["A"], "english": at["B"], "single": at["C"],
                "alternatives": [at[c] for c in ALT_LETTERS if c in at],
                "n_alternatives": at.get("N"), "types": at.get("O"), "ambiguous": at.get("P")}
    if columns != "names":
        raise DatasetError(path, f"columns must be 'names' or 'positional', not {columns!r}")
    by_key = {}
    for i, label in enumerate(labels):
        by_key.setdefault(_key(label), i)
    found: dict[str, Any] = {}
    for field, header in HEADERS.items():
        found[field] = by_key.get(_key(header))
    for field in ("id", "english"):
        if found[field] is None:
            raise DatasetError(path, f"no column {HEADERS[field]!r} in the header (found: "
                                     f"{', '.join(map(str, labels))}); if this copy's headers "
                                     "differ, set data.columns: positional to read columns "
                                     "A–P by position", column=HEADERS[field])
    if found["single"] is None and found["alternatives"] is None:
        raise DatasetError(path, f"neither {HEADERS['single']!r} nor {HEADERS['alternatives']!r}"
                                 " is in the header: no Italian translations",
                           column=HEADERS["single"])
    alt = found["alternatives"]
    # D holds the header; E–M are whatever the export wrote, up to the next named column.
    named = {i for f, i in found.items() if i is not None and f != "alternatives"}
    alternatives = []
    if alt is not None:
        for i in range(alt, min(alt + N_ALTERNATIVES, len(labels))):
            if i in named:
                break
            alternatives.append(labels[i])
    out = {f: (labels[i] if i is not None else None) for f, i in found.items()
           if f != "alternatives"}
    out["alternatives"] = alternatives
    return out


def _cell(value: object) -> str | None:
    text = " ".join(str(value).split()) if value is not None else ""
    return None if is_blank(text) else text  # zero-width characters alone are empty


def to_data_table(raw: pd.DataFrame, path: str | Path, columns: str = "names",
                  tags: dict[str, Any] | None = None) -> pd.DataFrame:
    """Validate the sheet and return the data table (rows count from 1 after the header)."""
    cols = locate_columns(raw, path, columns)
    scheme = TagScheme.source(**(tags or {}))
    frame = raw[raw.apply(lambda r: any(not is_blank(str(v)) for v in r), axis=1)]
    if frame.empty:
        raise DatasetError(path, "the table has no rows")
    records, seen = [], {}
    for row_number, row in frame.iterrows():
        row_no = int(row_number) + 1  # pandas' index is the row's position after the header
        item_id = _cell(row[cols["id"]])
        if item_id is None:
            raise DatasetError(path, "empty ID", row=row_no, column=cols["id"])
        if item_id in seen:
            raise DatasetError(path, f"duplicated ID {item_id!r} (first in row "
                                     f"{seen[item_id]})", row=row_no, column=cols["id"])
        seen[item_id] = row_no
        english = _cell(row[cols["english"]])
        if english is None:
            raise DatasetError(path, "empty English sentence", row=row_no,
                               column=cols["english"])
        try:
            parsed = parse_tagged(english, scheme, where=f"{path}, row {row_no}, ID {item_id}")
        except TagError as exc:
            raise DatasetError(path, str(exc).split(": ", 1)[-1], row=row_no,
                               column=cols["english"]) from exc
        single = _cell(row[cols["single"]]) if cols["single"] is not None else None
        alts = [_cell(row[c]) for c in cols["alternatives"]]
        alts = [a for a in alts if a is not None]
        if single is None and not alts:
            raise DatasetError(path, "no Italian translation: column C and D–M are all empty",
                               row=row_no, column=cols["single"] or cols["alternatives"][0])
        rec: dict[str, Any] = {
            "item_id": item_id, "row": row_no, "src_lang": "en", "tgt_lang": "it",
            "source": parsed.text, "source_tagged": english,
            "reference": single or alts[0], "ref_single": single,
            **{f"ref_alt_{i + 1}": (alts[i] if i < len(alts) else None)
               for i in range(N_ALTERNATIVES)},
            "ref_first": single or alts[0], "ref_last": single or alts[-1],
            "n_alternatives_found": len(alts),
        }
        rec.update(_alternative_metadata(row, cols, len(alts), path, row_no, item_id))
        records.append(rec)
    table = pd.DataFrame.from_records(records)
    table["n_alternatives"] = table["n_alternatives"].astype("Int64")
    return table


def _alternative_metadata(row: pd.Series, cols: dict[str, Any], n_found: int, path, row_no: int,
                          item_id: str) -> dict[str, Any]:
    """Columns N–P as published; inconsistencies are warnings (the file was never seen)."""
    number = _cell(row[cols["n_alternatives"]]) if cols["n_alternatives"] else None
    types = _cell(row[cols["types"]]) if cols["types"] else None
    referents = _cell(row[cols["ambiguous"]]) if cols["ambiguous"] else None
    n_declared = None
    if number is not None:
        try:
            n_declared = int(float(number))
        except ValueError as exc:
            raise DatasetError(path, f"Number of Alternatives {number!r} is not a number",
                               row=row_no, column=cols["n_alternatives"]) from exc
        if n_declared != n_found:
            log.warning("%s row %d (ID %s): Number of Alternatives says %d, %d alternative "
                        "columns are filled", path, row_no, item_id, n_declared, n_found)
    type_list = [t.strip() for t in re.split(r"\s+-\s+|,", types)] if types else []
    if type_list and n_found and len(type_list) != n_found:
        log.warning("%s row %d (ID %s): %d alternative types for %d alternatives", path,
                    row_no, item_id, len(type_list), n_found)
    return {"n_alternatives": n_declared, "alternative_types": " - ".join(type_list) or None,
            "ambiguous_referents": referents}


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def load(path: str | Path, fmt: str = "auto", columns: str = "names",
         tags: dict[str, Any] | None = None) -> tuple[pd.DataFrame, dict]:
    """The data table and its provenance."""
    raw = read_table(path, fmt)
    data = to_data_table(raw, path, columns, tags)
    provenance = {
        "path": str(path), "size": Path(path).stat().st_size, "sha256": _sha256(Path(path)),
        "format": fmt, "columns": columns,
        "tags": tags or {}, "rows": len(data),
        "rows_single_translation": int(data["ref_single"].notna().sum()),
        "rows_with_alternatives": int((data["n_alternatives_found"] > 0).sum()),
    }
    return data, provenance


def build(output: str | Path, provenance_path: str | Path, *, path: str, format: str = "auto",
          columns: str = "names", tags: dict[str, Any] | None = None) -> None:
    """Workflow stage: gENder-IT's table → ``data.parquet`` and its provenance JSON."""
    data, provenance = load(path, format, columns, tags)
    log.info("gENder-IT: %d sentences (%d with one translation, %d with alternatives)",
             provenance["rows"], provenance["rows_single_translation"],
             provenance["rows_with_alternatives"])
    write_data_table("conga", output, data)
    write_json(provenance_path, provenance)
