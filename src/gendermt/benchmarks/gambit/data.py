"""Read GAMBIT's English texts into the study's data table, through an adapter.

GAMBIT's release format is not known (``datasets.md`` §4.1: the dataset was announced, its
files not found), so this loader reads any table that holds, per text, the English text, its
text type, its ISCO-08 unit-group code and a title, and maps the file's column names onto ours:

* formats: CSV (separator sniffed from the header: ``,`` ``;`` or tab), TSV, JSONL, JSON (a
  list of records, or an object with one list of records under ``data``, ``rows`` or
  ``items``), Parquet; ``format: auto`` (the default) goes by the file's extension;
* ``columns``: our name → the file's column; without it, the first present of
  :data:`DEFAULT_COLUMNS` is used (``text``, ``text_type`` and ``isco`` are required,
  ``title`` and ``item_id`` optional);
* text types are mapped onto the paper's five spellings (:data:`TEXT_TYPES`) from common
  published variants: any case, ``_``/``-`` for spaces, plurals, and the bare nouns
  (``story``, ``news report``, ``statement``, ``conversation``, ``presentation``);
* ISCO codes are kept as 4-character strings (``"0110"`` for the armed forces); a code read as
  a number (Parquet, JSON) gets its leading zero back, a code in text must have 4 digits.

The project's sample (``resources/gambit/sample/gambit-sample.jsonl``) is one JSON object per
line with ``id``, ``category`` (e.g. ``short_story``), ``isco_code``, ``isco_title``,
``occupation`` (the English title used in the text) and ``text``; the defaults read it as is.

The data table (:func:`load`), one row per text: ``item_id`` (the file's id column, else
``gambit-00000``… by row), ``source``, ``src_lang`` = ``"en"``, ``tgt_lang`` = ``""`` (the
target language is the workflow's prompt), ``text_type``, ``isco``, ``isco_title`` (``""``
when the file has no title column). Errors name the file, the row (1-based, not counting a
header) and the column.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from pathlib import Path
from typing import Any

import pandas as pd

from gendermt.core.errors import DatasetError, GenderMTError, MissingResourceError
from gendermt.data.io import write_json
from gendermt.data.stage_tables import write_data_table

log = logging.getLogger(__name__)

TEXT_TYPES = ("short story", "brief news report", "short statement", "short conversation",
              "short presentation")
FORMATS = ("auto", "csv", "tsv", "jsonl", "json", "parquet")
DEFAULT_COLUMNS: dict[str, tuple[str, ...]] = {
    "text": ("text", "Text", "sentence", "source", "english"),
    "text_type": ("text_type", "category", "type", "Category", "text type", "format"),
    "isco": ("isco", "isco_code", "ISCO", "ISCO 08 Code", "code", "isco08"),
    "title": ("title", "isco_title", "occupation", "Title EN"),
    "item_id": ("item_id", "id", "ID", "text_id"),
}
REQUIRED = ("text", "text_type", "isco")
OUTPUT_COLUMNS = ["item_id", "source", "src_lang", "tgt_lang", "text_type", "isco",
                  "isco_title"]
_EXTENSIONS = {".csv": "csv", ".tsv": "tsv", ".txt": "tsv", ".jsonl": "jsonl",
               ".json": "json", ".parquet": "parquet"}
_ALIASES = {
    "story": "short story", "stories": "short story", "short stories": "short story",
    "news": "brief news report", "news report": "brief news report",
    "news reports": "brief news report", "brief news": "brief news report",
    "brief news reports": "brief news report",
    "statement": "short statement", "statements": "short statement",
    "short statements": "short statement",
    "conversation": "short conversation", "conversations": "short conversation",
    "short conversations": "short conversation", "dialogue": "short conversation",
    "presentation": "short presentation", "presentations": "short presentation",
    "short presentations": "short presentation",
}


def text_type_of(value: object) -> str | None:
    """The paper's spelling of a text type, or None when ``value`` is not one."""
    if not isinstance(value, str):
        return None
    key = re.sub(r"[\s_\-]+", " ", value).strip().lower()
    if key in TEXT_TYPES:
        return key
    return _ALIASES.get(key)


def isco_code_of(value: object) -> str | None:
    """A 4-digit ISCO-08 unit-group code as a string, or None when ``value`` is not one."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if value != value or value < 0 or value != int(value):  # NaN, negative, fraction
            return None
        text = f"{int(value):04d}"  # a number lost the armed forces' leading zero
    elif isinstance(value, str):
        text = value.strip()
    else:  # numpy scalars
        try:
            return isco_code_of(value.item())  # type: ignore[attr-defined]
        except AttributeError:
            return None
    # ASCII digits only: \d would take Arabic-Indic and other digits
    return text if re.fullmatch(r"[0-9]{4}", text) else None


# --------------------------------------------------------------------------- reading
def _format_of(path: Path, fmt: str) -> str:
    if fmt not in FORMATS:
        raise GenderMTError(f"GAMBIT data: format {fmt!r} is not one of {', '.join(FORMATS)}")
    if fmt != "auto":
        return fmt
    found = _EXTENSIONS.get(path.suffix.lower())
    if found is None:
        raise DatasetError(path, f"cannot tell the format from the extension {path.suffix!r}; "
                                 f"set data.format to one of {', '.join(FORMATS[1:])}")
    return found


def read_file(path: str | Path, fmt: str = "auto") -> pd.DataFrame:
    """The file as a table, unvalidated (text files read as strings)."""
    path = Path(path)
    if not path.is_file():
        raise MissingResourceError(
            f"GAMBIT file {path} does not exist; point benchmarks.gambit.data.path at the "
            "dataset's file (or the project's sample resources/gambit/sample/gambit-sample.jsonl)")
    kind = _format_of(path, fmt)
    try:
        if kind == "parquet":
            return pd.read_parquet(path)
        if kind in ("csv", "tsv"):
            return _read_delimited(path, kind)
        if kind == "jsonl":
            return pd.DataFrame(_read_jsonl(path))
        return pd.DataFrame(_records_of_json(path))
    except DatasetError:
        raise
    except UnicodeDecodeError as exc:
        raise DatasetError(path, f"not UTF-8 text: {exc}") from exc
    except (pd.errors.ParserError, ValueError, OSError) as exc:
        raise DatasetError(path, f"not a readable {kind} file: {exc}") from exc


def _read_delimited(path: Path, kind: str) -> pd.DataFrame:
    with path.open(encoding="utf-8-sig") as fh:
        header = fh.readline()
    if not header.strip():
        raise DatasetError(path, "the file is empty (no header row)")
    # a CSV's separator: the candidate that splits the header into the most fields
    sep = "\t" if kind == "tsv" else max((",", ";", "\t"), key=header.count)
    return pd.read_csv(path, sep=sep, dtype=str, keep_default_na=False, encoding="utf-8-sig")


def _read_jsonl(path: Path) -> list[dict]:
    rows = []
    with path.open(encoding="utf-8-sig") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise DatasetError(path, f"not JSON: {exc}", row=n) from exc
            if not isinstance(record, dict):
                raise DatasetError(path, "each line must be a JSON object", row=n)
            rows.append(record)
    return rows


def _records_of_json(path: Path) -> list[dict]:
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))
    except json.JSONDecodeError as exc:
        raise DatasetError(path, f"not JSON: {exc}") from exc
    if isinstance(data, dict):
        lists = [k for k in ("data", "rows", "items") if isinstance(data.get(k), list)]
        if not lists:
            raise DatasetError(path, "a JSON object must hold the records in a list under "
                                     "'data', 'rows' or 'items'")
        data = data[lists[0]]
    if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
        raise DatasetError(path, "expected a list of JSON objects (one per text)")
    return data


# --------------------------------------------------------------------------- mapping
def resolve_columns(frame: pd.DataFrame, path: str | Path,
                    columns: dict[str, str] | None = None) -> dict[str, str]:
    """Our column name → the file's, from ``columns`` and the defaults; required ones must
    be present."""
    columns = dict(columns or {})
    unknown = sorted(set(columns) - set(DEFAULT_COLUMNS))
    if unknown:
        raise GenderMTError(f"GAMBIT data.columns: unknown key(s) {unknown}; known: "
                            f"{', '.join(DEFAULT_COLUMNS)}")
    found: dict[str, str] = {}
    present = [str(c) for c in frame.columns]
    for ours, candidates in DEFAULT_COLUMNS.items():
        if ours in columns:
            name = columns[ours]
            if name not in present:
                raise DatasetError(path, f"no column {name!r} (named by data.columns.{ours}; "
                                         f"columns found: {', '.join(present)})", column=name)
            found[ours] = name
            continue
        match = next((c for c in candidates if c in present), None)
        if match is not None:
            found[ours] = match
        elif ours in REQUIRED:
            raise DatasetError(path, f"no {ours} column (tried {', '.join(candidates)}; "
                                     f"columns found: {', '.join(present)}); name it in "
                                     f"data.columns.{ours}", column=ours)
    return found


def _fail(path, column: str, rows: list[int], problem) -> None:
    """Raise for the first bad row (0-based positions in ``rows``); ``problem(i)`` says what."""
    if rows:
        more = f" ({len(rows) - 1} more rows like this)" if len(rows) > 1 else ""
        raise DatasetError(path, problem(rows[0]) + more, row=rows[0] + 1, column=column)


def _load(source: dict[str, Any]) -> tuple[pd.DataFrame, dict[str, str], str]:
    if "path" not in source:
        raise GenderMTError("GAMBIT data: the data block needs a `path`")
    path = Path(source["path"])
    fmt = source.get("format", "auto")
    raw = read_file(path, fmt)
    if raw.empty:
        raise DatasetError(path, "the file has no rows")
    cols = resolve_columns(raw, path, source.get("columns"))

    texts = raw[cols["text"]]
    _fail(path, cols["text"],
          [i for i, v in enumerate(texts) if not isinstance(v, str) or not v.strip()],
          lambda i: "empty or missing text")

    values = raw[cols["text_type"]]
    kinds = [text_type_of(v) for v in values]
    _fail(path, cols["text_type"], [i for i, v in enumerate(kinds) if v is None],
          lambda i: f"unknown text type {values.iloc[i]!r} (expected one of: "
                    f"{', '.join(TEXT_TYPES)})")

    values = raw[cols["isco"]]
    codes = [isco_code_of(v) for v in values]
    _fail(path, cols["isco"], [i for i, v in enumerate(codes) if v is None],
          lambda i: f"ISCO-08 code {values.iloc[i]!r} is not a 4-digit unit-group code")

    if "title" in cols:
        titles = ["" if v is None or (isinstance(v, float) and v != v) else str(v).strip()
                  for v in raw[cols["title"]]]
    else:
        titles = [""] * len(raw)

    if "item_id" in cols:
        ids = ["" if v is None or (isinstance(v, float) and v != v) else str(v).strip()
               for v in raw[cols["item_id"]]]
        _fail(path, cols["item_id"], [i for i, v in enumerate(ids) if not v],
              lambda i: "empty id")
        first: dict[str, int] = {}
        dup = [i for i, v in enumerate(ids) if first.setdefault(v, i) != i]
        _fail(path, cols["item_id"], dup,
              lambda i: f"duplicated id {ids[i]!r} (first seen in row {first[ids[i]] + 1})")
    else:
        width = max(5, len(str(len(raw) - 1)))
        ids = [f"gambit-{i:0{width}d}" for i in range(len(raw))]

    frame = pd.DataFrame({
        "item_id": ids, "source": [str(t).strip() for t in texts], "src_lang": "en",
        "tgt_lang": "", "text_type": kinds, "isco": codes, "isco_title": titles,
    }, columns=OUTPUT_COLUMNS)
    return frame, cols, _format_of(path, fmt)


def check_codes(frame: pd.DataFrame, path: str | Path, column: str,
                isco_path: str | Path) -> None:
    """Every text's code must be a unit group (level 4) of the ISCO-08 file: a code that is
    not would be dropped, without a word, by every analysis that groups by the hierarchy."""
    from gendermt.benchmarks.gambit.isco import load_isco

    hierarchy = load_isco(isco_path)
    units = set(hierarchy.loc[hierarchy["level"] == 4, "code"])
    codes = list(frame["isco"])
    _fail(path, column, [i for i, code in enumerate(codes) if code not in units],
          lambda i: f"ISCO-08 code {codes[i]!r} is not a unit group of {isco_path}")


def load(source: dict[str, Any], isco: str | Path | None = None) -> pd.DataFrame:
    """The data table (see the module docstring) from a config ``data:`` block
    (``{path, format, columns}``); with ``isco`` (the ISCO-08 file), every code is checked
    against the hierarchy."""
    frame, cols, _ = _load(source)
    if isco is not None:
        check_codes(frame, source["path"], cols["isco"], isco)
    return frame


def _sha256(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def build(source: dict[str, Any], output: str | Path, provenance: str | Path,
          isco: str | Path | None = None) -> None:
    """Workflow stage: the GAMBIT file → ``data.parquet`` (+ where it came from, as JSON);
    codes are checked against the ISCO-08 file ``isco``."""
    frame, columns, fmt = _load(source)
    path = Path(source["path"])
    if isco is not None:
        check_codes(frame, path, columns["isco"], isco)
    write_data_table("gambit", output, frame)
    write_json(provenance, {
        "files": {"data": {"path": str(path), "size": Path(path).stat().st_size,
                           "sha256": _sha256(path)}},
        "format": fmt,
        "columns": columns,
        "items": len(frame),
        "text_type": {t: int(n) for t, n in frame["text_type"].value_counts().sort_index()
                      .items()},
        "isco_codes": int(frame["isco"].nunique()),
    })
    log.info("GAMBIT: %d texts, %d ISCO-08 unit groups from %s", len(frame),
             frame["isco"].nunique(), path)
