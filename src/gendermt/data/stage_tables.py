"""What a stage's table must hold, checked where the stage writes it: a data stage that
leaves out a column the generic stages read fails in its own job, with one line naming the
benchmark, the stage, the file and the column, instead of in the generic inputs stage with
pyarrow's ``No match for FieldRef.Name(src_lang)``.

The data table (``<benchmark>/data.parquet``) of every benchmark holds the columns the generic
``build_inputs``, ``translate`` and ``score`` stages read (``gendermt.core.contract.
DATA_COLUMNS``); a benchmark requires more with its contract's ``data_columns``
(:func:`gendermt.core.registry.data_columns`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from gendermt.core.errors import GenderMTError
from gendermt.core.registry import data_columns

if TYPE_CHECKING:
    import pandas as pd

def _kind_of(series: pd.Series) -> set[str]:
    from pandas.api import types

    if types.is_bool_dtype(series):
        return {"boolean", "any"}
    if types.is_numeric_dtype(series):
        return {"number", "any"}
    if types.is_string_dtype(series) and series.map(lambda v: isinstance(v, str)).all():
        return {"string", "any"}
    return {"any"}


def check_table(benchmark: str, stage: str, path: str | Path, frame: pd.DataFrame,
                columns: Mapping[str, str]) -> None:
    """Raise :class:`GenderMTError` for the first required column ``frame`` lacks or holds
    with another kind of value."""
    for column, kind in columns.items():
        where = f"{benchmark} {stage} stage: {Path(path).name} ({path})"
        if column not in frame.columns:
            raise GenderMTError(f"{where} has no column {column!r} (required: "
                                f"{', '.join(columns)})")
        if kind not in _kind_of(frame[column]):
            raise GenderMTError(f"{where}: column {column!r} is not {kind} "
                                f"(dtype {frame[column].dtype})")


def write_data_table(benchmark: str, path: str | Path, frame: pd.DataFrame) -> None:
    """A benchmark's data table, checked (:func:`check_table`), then written atomically."""
    from gendermt.data.io import write_parquet

    check_table(benchmark, "data", path, frame, data_columns(benchmark))
    write_parquet(path, frame)
