"""WinoMT's published outputs as a format of the ``stored`` backend (``format: winomt``): one
``source ||| translation`` line per item in item order, whose source side must be the item's
sentence (``source_mismatch``: ``error``, the default, stops on a line that translates
another sentence; ``warn`` logs each such line and keeps its translation: the published
outputs have two, translated from an earlier ``en.txt``). Registered by WinoMT's contract."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from gendermt.core.errors import DatasetError
from gendermt.translation.backends.stored import file_lines, item_rows

if TYPE_CHECKING:  # the jobs that build a backend import pandas
    import pandas as pd

log = logging.getLogger(__name__)

SEPARATOR = "|||"


def same_sentence(a: str, b: str) -> bool:
    """Whether two sentences are the same with white space normalised."""
    return a.split() == b.split()


def read(path: Path, data: pd.DataFrame, source_mismatch: str = "error") -> dict[str, str]:
    """``{item_id: translation}`` from WinoMT's ``source ||| translation`` lines, one per item
    in item order (a study's subset: at its items' rows of the full set)."""
    lines = [line.rstrip("\r") for line in file_lines(path)]
    rows = item_rows(path, len(lines), data)
    outputs, mismatched = {}, []
    for row, item_id, source in zip(rows, data["item_id"], data["source"], strict=True):
        n, line = row + 1, lines[row]
        if SEPARATOR not in line:
            raise DatasetError(path, f"no {SEPARATOR!r} separating the source from the "
                                     "translation", row=n)
        src, _, tgt = line.partition(SEPARATOR)
        if not same_sentence(src, source):
            mismatched.append(n)
            message = (f"the source side {src.strip()!r} is not item {item_id}'s sentence "
                       f"{source!r}")
            if source_mismatch == "error":
                raise DatasetError(path, message + " (the file is not in the data's order, or "
                                   "was translated from another version of the data; "
                                   "source_mismatch: warn keeps such lines)", row=n)
            log.warning("%s, row %d: %s; kept (source_mismatch: warn)", path, n, message)
        outputs[str(item_id)] = tgt.strip()
    if mismatched:
        log.warning("%s: %d line(s) translate another sentence than their item's: rows %s",
                    path, len(mismatched), mismatched)
    return outputs
