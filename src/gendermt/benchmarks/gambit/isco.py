"""The ISCO-08 hierarchy (major, sub-major, minor and unit groups) from a file the user names.

Format read (``datasets.md`` §4.2, ``ISCO-08-EN.csv`` of ``ails-lab/Sure-GB``): UTF-8 (a BOM
is allowed), semicolon-separated, a header row
``Level;ISCO 08 Code;Title EN;Definition;Tasks include;Included occupations;Excluded
occupations;Notes``, fields quoted with ``"`` where they hold a separator, a quote or a line
break, multi-line fields, and mixed CRLF/LF line endings (CRLF between records, LF inside
fields in the published file; either is read anywhere, and line breaks inside fields come out
as ``\\n``). Codes are unpadded digit strings whose length is the level (``1``, ``11``,
``111``, ``1111``; armed forces ``0``, ``01``, ``011``, ``0110``).

Checks: the header's eight columns, levels 1-4 and all four present, each code's length equal
to its level, no duplicate code, a non-empty title, every code's parent (its first
``level - 1`` digits) present. A file that fails names the file, row (1-based data row) and
column. The project ships an excerpt in this layout (``resources/gambit/isco08-excerpt.csv``,
the sample's 20 unit groups and their ancestors, definitions written by the project); the full
structure (619 groups: 10/43/130/436) is read from the file the user names.

The table (:func:`load_isco`): ``code`` (str), ``level`` (int 1-4), ``title``, ``definition``,
``tasks``, ``included``, ``excluded``, ``notes`` (str, ``""`` when empty), sorted by code.
"""

from __future__ import annotations

import csv
import logging
import re
from pathlib import Path

import pandas as pd

from gendermt.core.errors import DatasetError, GenderMTError, MissingResourceError
from gendermt.data.io import write_parquet

log = logging.getLogger(__name__)

HEADER = ("Level", "ISCO 08 Code", "Title EN", "Definition", "Tasks include",
          "Included occupations", "Excluded occupations", "Notes")
# our column name for each column of the file
COLUMNS = {"Level": "level", "ISCO 08 Code": "code", "Title EN": "title",
           "Definition": "definition", "Tasks include": "tasks",
           "Included occupations": "included", "Excluded occupations": "excluded",
           "Notes": "notes"}
OUTPUT_COLUMNS = ["code", "level", "title", "definition", "tasks", "included", "excluded",
                  "notes"]
LEVELS = (1, 2, 3, 4)


def _clean(value: str) -> str:
    return re.sub(r"\r\n?", "\n", value).strip()


def load_isco(path: str | Path) -> pd.DataFrame:
    """The hierarchy as a table (see the module docstring), validated."""
    path = Path(path)
    if not path.is_file():
        raise MissingResourceError(
            f"ISCO-08 file {path} does not exist; point the config's ISCO-08 path at a CSV in "
            "the layout of ISCO-08-EN.csv (datasets.md 4.2), e.g. the project's excerpt "
            "resources/gambit/isco08-excerpt.csv")
    try:
        with path.open(encoding="utf-8-sig", newline="") as fh:
            rows = list(csv.reader(fh, delimiter=";", quotechar='"'))
    except UnicodeDecodeError as exc:
        raise DatasetError(path, f"not UTF-8 text: {exc}") from exc
    except csv.Error as exc:
        raise DatasetError(path, f"not a readable semicolon-separated file: {exc}") from exc
    if not rows:
        raise DatasetError(path, "the file is empty (no header row)")
    header = [h.strip() for h in rows[0]]
    missing = [h for h in HEADER if h not in header]
    if missing:
        raise DatasetError(path, f"missing from the header (expected "
                                 f"{';'.join(HEADER)}; found {';'.join(header)})",
                           column=missing[0])
    where = {h: header.index(h) for h in HEADER}
    records = []
    for n, row in enumerate(rows[1:], 1):
        if not any(field.strip() for field in row):
            continue  # a blank line (e.g. at the end)
        if len(row) != len(header):
            raise DatasetError(path, f"{len(row)} fields, the header has {len(header)} "
                                     "(an unbalanced quote?)", row=n)
        record = {COLUMNS[h]: _clean(row[i]) for h, i in where.items()}
        record["row"] = n
        records.append(record)
    if not records:
        raise DatasetError(path, "the file has no rows")
    return _validate(pd.DataFrame.from_records(records), path)


def _check_row(path: Path, level: str, code: str, title: str, row: int) -> None:
    """One group's level, code and title."""
    if level not in ("1", "2", "3", "4"):
        raise DatasetError(path, f"level {level!r} is not one of 1, 2, 3, 4", row=row,
                           column="Level")
    if not re.fullmatch(r"[0-9]+", code):
        raise DatasetError(path, f"code {code!r} is not a string of digits", row=row,
                           column="ISCO 08 Code")
    if len(code) != int(level):
        raise DatasetError(path, f"code {code!r} has {len(code)} digits but level "
                                 f"{level} (a level-n code has n digits)", row=row,
                           column="ISCO 08 Code")
    if not title:
        raise DatasetError(path, f"empty title for code {code}", row=row,
                           column="Title EN")


def _check_codes(frame: pd.DataFrame, path: Path) -> None:
    """Each code appears once, and each group's parent group is in the file."""
    first: dict[str, int] = {}
    for code, row in zip(frame["code"], frame["row"], strict=True):
        if code in first:
            raise DatasetError(path, f"code {code} appears twice (first in row {first[code]})",
                               row=row, column="ISCO 08 Code")
        first[code] = row
    for code, row in zip(frame["code"], frame["row"], strict=True):
        if len(code) > 1 and code[:-1] not in first:
            raise DatasetError(path, f"code {code} has no parent group {code[:-1]} in the "
                                     "file", row=row, column="ISCO 08 Code")


def _validate(frame: pd.DataFrame, path: Path) -> pd.DataFrame:
    levels = []
    for level, code, title, row in zip(frame["level"], frame["code"], frame["title"],
                                       frame["row"], strict=True):
        _check_row(path, level, code, title, row)
        levels.append(int(level))
    frame["level"] = levels
    _check_codes(frame, path)
    absent = [lv for lv in LEVELS if lv not in set(levels)]
    if absent:
        raise DatasetError(path, f"no group of level {', '.join(map(str, absent))}: an ISCO-08 "
                                 "file has all four levels (major, sub-major, minor, unit "
                                 "groups)", column="Level")
    return frame.sort_values("code", kind="stable")[OUTPUT_COLUMNS].reset_index(drop=True)


def ancestor(code: str, level: int) -> str:
    """The group of ``level`` (1-4) that ``code`` belongs to: its first ``level`` digits."""
    code = str(code)
    if not re.fullmatch(r"[0-9]{1,4}", code):
        raise GenderMTError(f"ISCO-08 code {code!r} is not 1-4 digits")
    if level not in LEVELS or level > len(code):
        raise GenderMTError(f"cannot take the level-{level} group of the level-{len(code)} "
                            f"code {code!r}")
    return code[:level]


def description_of(isco: pd.DataFrame, code: str) -> str:
    """``title + ". " + definition`` of a group: the text the judge's embedding filter
    compares an LLM's description with (the title alone when there is no definition)."""
    hit = isco.loc[isco["code"] == str(code)]
    if hit.empty:
        raise GenderMTError(f"ISCO-08 code {code!r} is not in the hierarchy")
    title, definition = hit.iloc[0]["title"], hit.iloc[0]["definition"]
    if not definition:
        return title
    return f"{title.rstrip('.')}. {definition}"


def build(path: str | Path, output: str | Path) -> None:
    """Workflow stage: the ISCO-08 CSV → ``isco.parquet``."""
    frame = load_isco(path)
    write_parquet(output, frame)
    counts = frame["level"].value_counts().sort_index().to_dict()
    log.info("ISCO-08: %d groups (by level %s) from %s", len(frame), counts, path)
