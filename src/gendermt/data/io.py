"""Writing results so that nothing half-written ever looks complete."""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import sys
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # only annotations: jobs that write no table need not import pandas
    import pandas as pd


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; rename it onto ``path`` only on success."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        yield Path(tmp)
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)


def write_text(path: str | os.PathLike, text: str) -> None:
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def write_json(path: str | os.PathLike, obj: Any) -> None:
    write_text(path, json.dumps(obj, indent=2, ensure_ascii=False, sort_keys=False) + "\n")


def write_jsonl(path: str | os.PathLike, records: Iterable[dict]) -> None:
    with atomic_path(path) as tmp, tmp.open("w", encoding="utf-8") as fh:
        for rec in records:
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")


def read_jsonl(path: str | os.PathLike) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def write_parquet(path: str | os.PathLike, frame: pd.DataFrame) -> None:
    with atomic_path(path) as tmp:
        frame.to_parquet(tmp, index=False)


# Every table writes its floats at this many significant digits. A float's last bits depend
# on the BLAS kernel and the CPU (OPENBLAS_CORETYPE, summation order: about 1e-15 relative),
# so a table written with every digit differs between machines; ten digits are more than any
# figure of a table means and still the same on every machine (docs/developing.md, "Tables").
TABLE_DIGITS = 10


def significant(value: Any, digits: int = TABLE_DIGITS) -> Any:
    """``value`` with every float rounded to ``digits`` significant digits (recursively
    through lists, tuples and mappings; numpy scalars too); ``-0.0`` becomes ``0.0``, NaN and
    infinities stay. Other values are returned as they are."""
    if isinstance(value, bool) or value is None or isinstance(value, (str, int)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            return value
        return float(f"{value:.{digits}g}") + 0.0  # + 0.0: no negative zero
    if isinstance(value, dict):
        return {k: significant(v, digits) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(significant(v, digits) for v in value)
    if hasattr(value, "dtype") and hasattr(value, "item") and getattr(value, "ndim", 1) == 0:
        return significant(value.item(), digits)  # numpy scalars
    return value


def table_floats(frame: pd.DataFrame, digits: int = TABLE_DIGITS) -> pd.DataFrame:
    """A copy of ``frame`` whose floats (float columns, and floats inside object columns) are
    rounded to ``digits`` significant digits (:func:`significant`)."""
    import pandas as pd

    out = frame.copy()
    for name in out.columns:
        column = out[name]
        if isinstance(column, type(out)):  # duplicate column names: leave as they are
            continue
        if column.dtype == object:
            # element by element: None stays None (Series.map would make it NaN)
            out[name] = pd.Series([significant(v, digits) if isinstance(v, float) else v
                                   for v in column], index=column.index, dtype=object)
        elif column.dtype.kind == "f":
            out[name] = column.map(lambda v: significant(float(v), digits), na_action="ignore")
    return out


def csv_text(frame: pd.DataFrame, **kwargs: Any) -> str:
    """``frame`` as the text of a table's CSV: no index, floats at :data:`TABLE_DIGITS`
    significant digits (the one format of every table the workflow writes)."""
    return table_floats(frame).to_csv(index=False, **kwargs)


def write_table(frame: pd.DataFrame, csv_path: str | os.PathLike,
                md_path: str | os.PathLike | None = None, *, floatfmt: str = ".2f",
                md_without: Sequence[str] = ()) -> None:
    """A table as CSV (floats at :data:`TABLE_DIGITS` significant digits) and, optionally,
    Markdown (rounded to ``floatfmt`` for reading), without the columns ``md_without`` (too
    wide to read there, e.g. metric signatures: the CSV has them)."""
    frame = table_floats(frame)
    write_text(csv_path, frame.to_csv(index=False))
    if md_path is not None:
        shown = frame.drop(columns=[c for c in md_without if c in frame.columns])
        write_text(md_path, markdown_cells(shown).to_markdown(index=False, floatfmt=floatfmt)
                   + "\n")


def markdown_cells(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with its text cells safe in a Markdown table: ``|`` escaped, line breaks as
    spaces (a model output holding either would break the table's rows)."""
    text = [c for c in frame.columns
            if any(isinstance(v, str) and ("|" in v or "\n" in v) for v in frame[c])]
    if not text:
        return frame
    shown = frame.copy()
    for column in text:
        shown[column] = [v.replace("|", "\\|").replace("\r\n", " ").replace("\n", " ")
                         if isinstance(v, str) else v for v in shown[column]]
    return shown


class _Tee:
    """A text stream writing to several files (a job's log and its attempts' history)."""

    def __init__(self, *streams: Any) -> None:
        self.streams = streams
        self.encoding = "utf-8"

    def write(self, text: str) -> int:
        for stream in self.streams:
            stream.write(text)
        return len(text)

    def flush(self) -> None:
        for stream in self.streams:
            stream.flush()

    def isatty(self) -> bool:
        return False


def attempts_path(log_path: str | os.PathLike) -> Path:
    """Beside a job's log: every attempt's log, appended (``<log>.attempts``)."""
    path = Path(log_path)
    return path.with_name(path.name + ".attempts")


@contextlib.contextmanager
def logging_to(log_path: str | os.PathLike | None) -> Iterator[None]:
    """Send logging records and stderr (progress bars, warnings) to ``log_path``.

    Each run starts under a header line. Snakemake deletes a job's declared log before every
    run, ``--retries`` restarts included, so each run's lines also go to
    ``<log>.attempts`` (not declared: kept), which holds every attempt's log, oldest first;
    ``log_path`` itself holds the latest attempt (and appends where it is not deleted)."""
    if log_path is None:
        yield
        return
    Path(log_path).parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "a", encoding="utf-8") as log_fh, \
            open(attempts_path(log_path), "a", encoding="utf-8") as all_fh:
        fh = _Tee(log_fh, all_fh)
        for stream in (log_fh, all_fh):
            if stream.tell():
                stream.write("\n")
        fh.write(f"==== run started {datetime.now(timezone.utc).isoformat(timespec='seconds')}"
                 f" (pid {os.getpid()}) ====\n")
        fh.flush()
        handler = logging.StreamHandler(fh)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        root = logging.getLogger()
        root.addHandler(handler)
        old_level = root.level
        root.setLevel(logging.INFO)
        try:
            with contextlib.redirect_stderr(fh):  # type: ignore[type-var]
                yield
        except BaseException:
            logging.getLogger("gendermt").exception("stage failed")
            raise
        finally:
            root.removeHandler(handler)
            root.setLevel(old_level)
            sys.stderr.flush()
