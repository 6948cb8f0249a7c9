"""Outputs a system produced elsewhere (published system outputs, another lab's runs), read
from a file so that they go through the same scoring as the systems run here.

Settings:

* ``path``: the file; ``{benchmark}`` and ``{prompt}`` are replaced by the job's benchmark
  and prompt names (e.g. ``outputs/google/{prompt}.txt``). Relative to the working directory.
* ``format``:
  - ``lines`` (default): one hypothesis per line, in the order of the benchmark's items;
  - ``table``: CSV, TSV or JSONL (by extension) with an ``item_id`` column and the
    hypothesis in ``column`` (default ``hypothesis``);
  - a format a benchmark provides (its contract's ``stored_formats``, e.g. WinoMT's
    published ``source ||| translation`` lines), with the settings it declares.
* ``column``: the hypothesis column of a ``table``.

Every item of the benchmark must have exactly one output, and the file must hold no output
for items the benchmark does not have: a file that does not cover the items is an error that
names the file and the missing or extra items.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from gendermt.core.errors import DatasetError, GenderMTError, MissingResourceError
from gendermt.data.subsets import ROW
from gendermt.data.textfiles import read_text, split_lines
from gendermt.translation.backends.base import Backend, Request

if TYPE_CHECKING:  # the workflow imports backends to plan; the jobs import pandas
    import pandas as pd

    from gendermt.core.contract import StoredFormat

#: This module's backends, as gendermt.core.backends reads them from this file's text
#: (without importing it): name → its class and what is known before a job runs.
ABOUT = {
    "stored": {
        "class": "Stored",
        "style": "offline",
        "workload": "files",
        "cli_setting": "path",
        "files": {"path": "stored outputs"},
        "example": ("outputs you already have, one file per prompt",
                    "gendermt run --model stored:outputs/{prompt}.tsv --option format=table "
                    "--name mine --benchmarks gambit"),
    },
}

log = logging.getLogger(__name__)

#: The formats of the backend itself; benchmarks add theirs (:func:`formats`).
FORMATS = ("lines", "table")
PLACEHOLDERS = ("benchmark", "prompt")
SHOWN = 5  # item ids named in an error message


def _named(ids: list[str]) -> str:
    more = f" and {len(ids) - SHOWN} more" if len(ids) > SHOWN else ""
    return ", ".join(map(str, ids[:SHOWN])) + more


def formats() -> dict[str, StoredFormat | None]:
    """Every format by name: the backend's own (None) and those benchmarks' contracts
    provide (gendermt.core.registry)."""
    from gendermt.core import registry

    provided = registry.stored_formats()
    clash = sorted(set(FORMATS) & set(provided))
    if clash:
        raise GenderMTError(f"stored format(s) {', '.join(clash)} are the backend's own; a "
                            "benchmark's contract cannot provide them")
    return {**dict.fromkeys(FORMATS), **provided}


class Stored(Backend):
    """Returns the outputs stored in a file, one per item (see the module docstring)."""

    name: ClassVar[str] = "stored"
    default_batch_size: ClassVar[int] = 1024
    # (and the settings of the formats benchmarks provide: check_settings)
    settings_keys: ClassVar[frozenset[str]] = frozenset({"path", "format", "column"})
    required_keys: ClassVar[frozenset[str]] = frozenset({"path"})
    # A lookup in a file: caching it would only keep stale copies when the file is replaced.
    cacheable: ClassVar[bool] = False

    @classmethod
    def check_settings(cls, settings: dict[str, Any]) -> None:
        known = formats()
        owners: dict[str, list[str]] = {}  # a provided format's setting → its formats
        for name, spec in known.items():
            for key in spec.settings if spec else ():
                owners.setdefault(key, []).append(name)
        super().check_settings({k: v for k, v in settings.items() if k not in owners})
        fmt = settings.get("format", "lines")
        if fmt not in known:
            raise GenderMTError(f"backend 'stored': format {fmt!r} is not one of "
                                f"{tuple(known)}")
        if "column" in settings and fmt != "table":
            raise GenderMTError("backend 'stored': `column` applies only to format: table")
        for key in sorted(set(settings) & set(owners)):
            if fmt not in owners[key]:
                raise GenderMTError(f"backend 'stored': `{key}` applies only to format: "
                                    f"{', '.join(owners[key])}")
            allowed = known[fmt].settings[key]
            if settings[key] not in allowed:
                raise GenderMTError(f"backend 'stored': {key} must be {' or '.join(allowed)}")
        from gendermt.config.placeholders import check

        # not str.format: it would evaluate {prompt.__class__} (issue 51)
        check(str(settings["path"]), PLACEHOLDERS,
              "backend 'stored': path may use only {benchmark} and {prompt}")

    @classmethod
    def modules_by_name(cls, settings: dict[str, Any]) -> tuple[str, ...]:
        """The reader's module of a format a benchmark provides (none for the own ones)."""
        spec = formats().get(settings.get("format", "lines"))
        return (spec.reader.partition(":")[0],) if spec else ()

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
        spec = formats()[fmt]
        if spec is not None:  # a benchmark's format
            from gendermt.core.contract import resolve

            own = {key: settings.get(key, allowed[0]) for key, allowed in spec.settings.items()}
            self.outputs = resolve(spec.reader)(path, data, **own)
        elif fmt == "table":
            self.outputs = read_table(path, settings.get("column", "hypothesis"), items)
        else:
            lines = read_lines(path, None)
            rows = item_rows(path, len(lines), data)
            self.outputs = dict(zip(items, (lines[r] for r in rows), strict=True))
        log.info("stored: %d outputs from %s", len(self.outputs), path)

    def translate(self, batch: list[Request]) -> list[str]:
        missing = [r.item_id for r in batch if r.item_id not in self.outputs]
        if missing:
            raise GenderMTError(f"stored outputs {self.settings['path']} have no output for "
                                f"items {_named(missing)}")
        return [self.outputs[r.item_id] for r in batch]


def resolve_path(template: str, context: dict[str, str]) -> str:
    """``path`` with ``{benchmark}`` and ``{prompt}`` filled in from the job's context."""
    from gendermt.config.placeholders import fill

    return fill(str(template), {k: context[k] for k in PLACEHOLDERS if k in context},
                "backend 'stored': path", PLACEHOLDERS)


def file_lines(path: Path) -> list[str]:
    """A file's lines, split on \\n only, as every gendermt command reads hypothesis files
    (textfiles)."""
    return split_lines(read_text(path))


def count_error(path: Path, found: int, expected: int) -> DatasetError:
    """The error of a file of ``found`` lines for ``expected`` items, one line per item."""
    if found < expected:
        problem = (f"{found} lines for {expected} items: the last {expected - found} items "
                   f"(lines {found + 1}-{expected}) have no output")
    else:
        problem = (f"{found} lines for {expected} items: lines {expected + 1}-{found} are "
                   "outputs for items the benchmark does not have")
    return DatasetError(path, problem + " (one line per item, in item order)")


def item_rows(path: Path, found: int, data: pd.DataFrame) -> list[int]:
    """The line (0-based) of each item of ``data`` in a file of ``found`` lines, one per item
    in item order: for a study's subset (gendermt.data.subsets) its items' rows of the full set,
    which the file is of; else their positions, and the file has exactly one line each."""
    if ROW in data.columns:
        rows = [int(r) for r in data[ROW]]
        if rows and max(rows) >= found:
            raise count_error(path, found, max(rows) + 1)
        return rows
    if found != len(data):
        raise count_error(path, found, len(data))
    return list(range(len(data)))


def read_lines(path: Path, expected: int | None) -> list[str]:
    """One output per line, exactly ``expected`` lines (None: any number)."""
    lines = [line.rstrip("\r") for line in file_lines(path)]
    if expected is not None and len(lines) != expected:
        raise count_error(path, len(lines), expected)
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


TEMPLATE_COLUMNS = ("item_id", "source", "hypothesis")


def write_template(data: pd.DataFrame, benchmark: str, prompts: list[str], out: str | Path
                   ) -> list[Path]:
    """Empty stored-output files for one benchmark: ``out/{benchmark}/{prompt}.tsv`` per
    prompt, one row per item in item order (``data``: the benchmark's ``data.parquet``, whose
    ``item_id`` order every prompt's file follows) with ``item_id``, ``source`` and an empty
    ``hypothesis`` to fill in; read back with ``format: table``. Existing files are never
    overwritten."""
    import pandas as pd

    from gendermt.data.io import csv_text, write_text

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
