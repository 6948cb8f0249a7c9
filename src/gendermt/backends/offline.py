"""Systems that need no weights, so that every machine has real outputs to score."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, ClassVar

from gendermt.errors import GenderMTError

from .base import Backend, Request

if TYPE_CHECKING:  # annotations only: the workflow imports backends to plan
    import pandas as pd

log = logging.getLogger(__name__)


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

    def __init__(self, settings: dict[str, Any], data: pd.DataFrame) -> None:
        super().__init__(settings, data)
        column = settings.get("reference")
        if column not in data.columns:
            refs = [c for c in data.columns if c.startswith("ref_") or c == "reference"]
            raise GenderMTError(f"reference-oracle: the data has no column {column!r} "
                                f"(reference columns: {', '.join(refs)})")
        values = data.set_index("item_id")[column]
        self.missing = int(values.isna().sum())
        if self.missing:
            log.warning("reference-oracle: %d items have no %s; their output is empty",
                        self.missing, column)
        self.references = values.fillna("").astype(str).to_dict()

    def translate(self, batch: list[Request]) -> list[str]:
        return [self.references[r.item_id] for r in batch]


class CopySource(Backend):
    """Returns the source unchanged: the floor every real system should clear."""

    name: ClassVar[str] = "copy-source"
    cacheable: ClassVar[bool] = False
    default_kind: ClassVar[str] = "baseline"

    def translate(self, batch: list[Request]) -> list[str]:
        return [r.source for r in batch]
