"""Outputs a system produced elsewhere (published system outputs, another lab's runs), read
from a file so that they go through the same scoring as the systems run here.

Settings:

* ``path``: the file; ``{benchmark}`` and ``{prompt}`` are replaced by the job's benchmark
  and prompt names (e.g. ``outputs/google/{prompt}.txt``). Relative to the working directory.
* ``format``:
  - ``lines`` (default): one hypothesis per line, in the order of the benchmark's items;
  - ``table``: CSV, TSV or JSONL (by extension) with an ``item_id`` column and the
    hypothesis in ``column`` (default ``hypothesis``);
  - ``winomt``: WinoMT's published outputs, one ``source ||| translation`` line per item in
    item order; the source side must be the item's source sentence (see ``source_mismatch``).
* ``column``: the hypothesis column of a ``table``.
* ``source_mismatch`` (``winomt`` only): ``error`` (default) stops on a line whose source side
  is not the item's sentence; ``warn`` logs each such line and keeps its translation (the
  published WinoMT outputs have two such lines, translated from an earlier ``en.txt``).

Every item of the benchmark must have exactly one output, and the file must hold no output
for items the benchmark does not have: a file that does not cover the items is an error that
names the file and the missing or extra items.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from gendermt.errors import DatasetError, GenderMTError, MissingResourceError
from gendermt.subsets import ROW
from gendermt.textfiles import read_text, split_lines

from .base import Backend, Request

if TYPE_CHECKING:  # the workflow imports backends to plan; the jobs import pandas
    import pandas as pd

log = logging.getLogger(__name__)

FORMATS = ("lines", "table", "winomt")
PLACEHOLDERS = ("benchmark", "prompt")
WINOMT_SEPARATOR = " ||| "
SHOWN = 5  # item ids named in an error message


def _named(ids: list[str]) -> str:
    more = f" and {len(ids) - SHOWN} more" if len(ids) > SHOWN else ""
    return ", ".join(map(str, ids[:SHOWN])) + more


def _normalise(text: str) -> str:
    return " ".join(text.split())


class Stored(Backend):
    """Returns the outputs stored in a file, one per item (see the module docstring)."""

    name: ClassVar[str] = "stored"
    default_batch_size: ClassVar[int] = 1024
    settings_keys: ClassVar[frozenset[str]] = frozenset(
        {"path", "format", "column", "source_mismatch"})
    required_keys: ClassVar[frozenset[str]] = frozenset({"path"})
    # A lookup in a file: caching it would only keep stale copies when the file is replaced.
    cacheable: ClassVar[bool] = False

    @classmethod
    def check_settings(cls, settings: dict[str, Any]) -> None:
        super().check_settings(settings)
        fmt = settings.get("format", "lines")
        if fmt not in FORMATS:
            raise GenderMTError(f"backend 'stored': format {fmt!r} is not one of {FORMATS}")
        if "column" in settings and fmt != "table":
            raise GenderMTError("backend 'stored': `column` applies only to format: table")
        if "source_mismatch" in settings:
            if fmt != "winomt":
                raise GenderMTError("backend 'stored': `source_mismatch` applies only to "
                                    "format: winomt")
            if settings["source_mismatch"] not in ("error", "warn"):
                raise GenderMTError("backend 'stored': source_mismatch must be error or warn")
        try:
            str(settings["path"]).format(**{k: k for k in PLACEHOLDERS})
        except (KeyError, IndexError, ValueError) as exc:
            raise GenderMTError(f"backend 'stored': path {settings['path']!r} may use only "
                                f"{{benchmark}} and {{prompt}} ({exc})") from exc

    @classmethod
    def resolve_settings(cls, settings: dict[str, Any], context: dict[str, str]
                         ) -> dict[str, Any]:
        resolved = dict(settings)
        resolved["path"] = resolve_path(settings["path"], context)
        return resolved

    def __init__(self, settings: dict[str, Any], data: pd.DataFrame) -> None:
        super().__init__(settings, data)
        path = Path(settings["path"])
        if "{" in str(path):
            raise GenderMTError(f"backend 'stored': path {path} still has a placeholder; "
                                "the job's benchmark and prompt were not given")
        if not path.is_file():
            raise MissingResourceError(f"stored outputs {path} do not exist (the system's "
                                       "`path` setting, after {benchmark}/{prompt} substitution)")
        items = [str(i) for i in data["item_id"]]
        fmt = settings.get("format", "lines")
        if fmt == "table":
            self.outputs = read_table(path, settings.get("column", "hypothesis"), items)
        elif fmt == "winomt":
            self.outputs = read_winomt(path, data, settings.get("source_mismatch", "error"))
        elif ROW in data.columns:  # a study's subset: the file is of the full set
            lines = read_lines(path, None)
            rows = [int(r) for r in data[ROW]]
            if rows and max(rows) >= len(lines):
                raise _count_error(path, len(lines), max(rows) + 1)
            self.outputs = dict(zip(items, (lines[r] for r in rows), strict=True))
        else:
            self.outputs = dict(zip(items, read_lines(path, len(items)), strict=True))
        log.info("stored: %d outputs from %s", len(self.outputs), path)

    def translate(self, batch: list[Request]) -> list[str]:
        missing = [r.item_id for r in batch if r.item_id not in self.outputs]
        if missing:
            raise GenderMTError(f"stored outputs {self.settings['path']} have no output for "
                                f"items {_named(missing)}")
        return [self.outputs[r.item_id] for r in batch]


def resolve_path(template: str, context: dict[str, str]) -> str:
    """``path`` with ``{benchmark}`` and ``{prompt}`` filled in from the job's context."""
    try:
        return str(template).format(**{k: context[k] for k in PLACEHOLDERS if k in context})
    except KeyError as exc:
        raise GenderMTError(f"backend 'stored': path {template!r} needs {exc}, which this job "
                            "does not give") from exc


def _lines(path: Path) -> list[str]:
    # split on \n only, as every gendermt command reads hypothesis files (textfiles)
    return split_lines(read_text(path))


def _count_error(path: Path, found: int, expected: int) -> DatasetError:
    if found < expected:
        problem = (f"{found} lines for {expected} items: the last {expected - found} items "
                   f"(lines {found + 1}-{expected}) have no output")
    else:
        problem = (f"{found} lines for {expected} items: lines {expected + 1}-{found} are "
                   "outputs for items the benchmark does not have")
    return DatasetError(path, problem + " (one line per item, in item order)")


def read_lines(path: Path, expected: int | None) -> list[str]:
    """One output per line, exactly ``expected`` lines (None: any number)."""
    lines = [line.rstrip("\r") for line in _lines(path)]
    if expected is not None and len(lines) != expected:
        raise _count_error(path, len(lines), expected)
    return lines


def _read_frame(path: Path) -> pd.DataFrame:
    """The rows of a CSV/TSV (as strings) or JSONL table."""
    import pandas as pd

    suffix = path.suffix.lower()
    try:
        if suffix == ".jsonl":
            return pd.DataFrame(_jsonl_rows(path))
        if suffix in (".csv", ".tsv"):
            return pd.read_csv(path, sep="\t" if suffix == ".tsv" else ",", dtype=str,
                               keep_default_na=False)
        raise DatasetError(path, "format: table reads .csv, .tsv or .jsonl files")
    except (pd.errors.EmptyDataError, pd.errors.ParserError) as exc:
        raise DatasetError(path, f"not a readable table: {exc}") from exc


def _jsonl_rows(path: Path) -> list[Any]:
    """The records of a JSON-lines file (blank lines skipped)."""
    rows = []
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if line.strip():
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError as exc:
                    raise DatasetError(path, f"not JSON: {exc}", row=n) from exc
    return rows


def _check_items(path: Path, ids: pd.Series, items: list[str]) -> None:
    """A table's item ids (``ids``) are ``items``, each once."""
    dup = ids[ids.duplicated()].unique().tolist()
    if dup:
        raise DatasetError(path, f"items {_named(dup)} appear more than once",
                           column="item_id")
    wanted = set(items)
    missing = [i for i in items if i not in set(ids)]
    extra = [i for i in ids if i not in wanted]
    if missing or extra:
        parts = []
        if missing:
            parts.append(f"no output for {len(missing)} items ({_named(missing)})")
        if extra:
            parts.append(f"outputs for {len(extra)} items the benchmark does not have "
                         f"({_named(extra)})")
        raise DatasetError(path, "; ".join(parts), column="item_id")


def read_table(path: Path, column: str, items: list[str]) -> dict[str, str]:
    """``{item_id: output}`` from a CSV/TSV/JSONL table that must cover exactly ``items``."""
    frame = _read_frame(path)
    for needed in ("item_id", column):
        if needed not in frame.columns:
            raise DatasetError(path, f"no column {needed!r} (columns: {list(frame.columns)})")
    ids = frame["item_id"].astype(str)
    _check_items(path, ids, items)
    values = frame[column]
    empty = ids[values.isna()].tolist()
    if empty:
        raise DatasetError(path, f"items {_named(empty)} have no value", column=column)
    return dict(zip(ids, values.astype(str), strict=True))


def read_winomt(path: Path, data: pd.DataFrame, on_mismatch: str = "error") -> dict[str, str]:
    """WinoMT's ``source ||| translation`` lines, one per item in item order; the source side
    must be the item's sentence (compared with whitespace normalised)."""
    lines = [line.rstrip("\r") for line in _lines(path)]
    if ROW in data.columns:  # a study's subset of the items: the file is of the full set
        rows = [int(r) for r in data[ROW]]
        if rows and max(rows) >= len(lines):
            raise _count_error(path, len(lines), max(rows) + 1)
    else:
        rows = list(range(len(data)))
        if len(lines) != len(data):
            raise _count_error(path, len(lines), len(data))
    outputs, mismatched = {}, []
    for row, item_id, source in zip(rows, data["item_id"], data["source"], strict=True):
        n, line = row + 1, lines[row]
        if WINOMT_SEPARATOR.strip() not in line:
            raise DatasetError(path, f"no {WINOMT_SEPARATOR.strip()!r} separating the source "
                                     "from the translation", row=n)
        src, _, tgt = line.partition(WINOMT_SEPARATOR.strip())
        if _normalise(src) != _normalise(source):
            mismatched.append(n)
            message = (f"the source side {src.strip()!r} is not item {item_id}'s sentence "
                       f"{source!r}")
            if on_mismatch == "error":
                raise DatasetError(path, message + " (the file is not in the data's order, or "
                                   "was translated from another version of the data; "
                                   "source_mismatch: warn keeps such lines)", row=n)
            log.warning("%s, row %d: %s; kept (source_mismatch: warn)", path, n, message)
        outputs[str(item_id)] = tgt.strip()
    if mismatched:
        log.warning("%s: %d line(s) translate another sentence than their item's: rows %s",
                    path, len(mismatched), mismatched)
    return outputs


TEMPLATE_COLUMNS = ("item_id", "source", "hypothesis")


def write_template(data: pd.DataFrame, benchmark: str, prompts: list[str], out: str | Path
                   ) -> list[Path]:
    """Empty stored-output files for one benchmark: ``out/{benchmark}/{prompt}.tsv`` per
    prompt, one row per item in item order (``data``: the benchmark's ``data.parquet``, whose
    ``item_id`` order every prompt's file follows) with ``item_id``, ``source`` and an empty
    ``hypothesis`` to fill in; read back with ``format: table``. Existing files are never
    overwritten."""
    import pandas as pd

    from gendermt.io import csv_text, write_text

    if not prompts:
        raise GenderMTError(f"{benchmark}: no prompts to write a template for")
    for needed in ("item_id", "source"):
        if needed not in data.columns:
            raise GenderMTError(f"{benchmark}: the data has no {needed!r} column")
    folder = Path(out) / benchmark
    paths = [folder / f"{prompt}.tsv" for prompt in prompts]
    present = [str(p) for p in paths if p.exists()]
    if present:
        raise GenderMTError(f"{present[0]} exists; the template never overwrites outputs "
                            "(give another --out)")
    frame = pd.DataFrame({"item_id": data["item_id"].astype(str),
                          "source": data["source"].astype(str)
                          .str.replace("\t", " ").str.replace("\n", " "),
                          "hypothesis": ""})
    text = csv_text(frame, sep="\t", lineterminator="\n")
    for path in paths:
        write_text(path, text)
    return paths
