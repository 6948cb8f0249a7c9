"""Systems that need no weights, so that every machine has real outputs to score."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from gendermt.core.errors import GenderMTError
from gendermt.translation.backends.base import Backend, Request

if TYPE_CHECKING:  # annotations only: the workflow imports backends to plan
    import pandas as pd

#: This module's backends, as gendermt.core.backends reads them from this file's text
#: (without importing it): name → its class and what is known before a job runs.
ABOUT = {
    "reference-oracle": {
        "class": "ReferenceOracle",
        "style": "offline",
        "workload": "files",
        "cli_setting": "reference",
        "example": ("a data column as the output (a reference point)",
                    "gendermt run --model reference-oracle:reference --name my-oracle "
                    "--benchmarks mt-geneval"),
    },
    "copy-source": {
        "class": "CopySource",
        "style": "offline",
        "workload": "files",
        "cli_setting": None,
        "example": ("the source unchanged (the floor)",
                    "gendermt run --model copy-source: --benchmarks gambit"),
    },
}

log = logging.getLogger(__name__)


def _missing(value: Any) -> bool:
    """A cell with no value: None (parquet's null) or NaN (pandas' missing float)."""
    return value is None or (isinstance(value, float) and value != value)


class ReferenceOracle(Backend):
    """Returns a column of the data table, e.g. the male reference of the same example.

    An upper bound and a sanity check: the male oracle scores 100 BLEU on male rows, and
    its scores on the other rows measure how far apart the gender variants are.
    """

    name: ClassVar[str] = "reference-oracle"
    cacheable: ClassVar[bool] = False
    default_kind: ClassVar[str] = "oracle"
    settings_keys: ClassVar[frozenset[str]] = frozenset({"reference"})
    required_keys: ClassVar[frozenset[str]] = frozenset({"reference"})

    @classmethod
    def load_data(cls, path: str | os.PathLike[str]) -> dict[str, list[Any]]:
        # pyarrow alone, not pandas: an oracle's job is a lookup, and pandas' import is most
        # of its time (ParquetFile: read_table goes through pyarrow.dataset, which imports
        # pandas)
        import pyarrow.parquet as pq

        table = pq.ParquetFile(path).read()
        return {name: table.column(name).to_pylist() for name in table.column_names}

    def __init__(self, settings: dict[str, Any],
                 data: pd.DataFrame | Mapping[str, Sequence[Any]]) -> None:
        super().__init__(settings, data)
        column = settings.get("reference")
        columns = list(data.columns) if hasattr(data, "columns") else list(data)
        if column not in columns:
            refs = [c for c in columns if c.startswith("ref_") or c == "reference"]
            raise GenderMTError(f"reference-oracle: the data has no column {column!r} "
                                f"(reference columns: {', '.join(refs)})")
        values = dict(zip(data["item_id"], data[column], strict=True))
        self.missing = sum(_missing(value) for value in values.values())
        if self.missing:
            log.warning("reference-oracle: %d items have no %s; their output is empty",
                        self.missing, column)
        self.references = {item: "" if _missing(value) else str(value)
                           for item, value in values.items()}

    def translate(self, batch: list[Request]) -> list[str]:
        return [self.references[r.item_id] for r in batch]


class CopySource(Backend):
    """Returns the source unchanged: the floor every real system should clear."""

    name: ClassVar[str] = "copy-source"
    cacheable: ClassVar[bool] = False
    default_kind: ClassVar[str] = "baseline"
    reads_data: ClassVar[bool] = False

    def translate(self, batch: list[Request]) -> list[str]:
        return [r.source for r in batch]
