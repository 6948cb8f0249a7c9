"""Read WinoMT's published data files and turn them into the study's data table.

Format (``datasets.md`` §6, ``data/aggregates/`` of gabrielStanovsky/mt_gender): TSV without
header, four columns: gold gender (``male``/``female``/``neutral``), the 0-based whitespace-
token index of the entity in the sentence, the English sentence, the entity. ``en_pro.txt``
and ``en_anti.txt`` are the pro- and anti-stereotypical subsets, in the same format; an item
belongs to a subset when the subset has a row identical to the item's.

``item_id`` is the row's position in ``en.txt`` (``0000``-``3887``), the order the published
translation files follow.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pandas as pd

from gendermt.benchmarks.winomt import GENDERS
from gendermt.core.errors import DatasetError, MissingResourceError
from gendermt.data import reads
from gendermt.data.io import write_json
from gendermt.data.stage_tables import write_data_table
from gendermt.data.textfiles import read_lines

log = logging.getLogger(__name__)

COLUMNS = ("gold", "entity_index", "source", "entity")


def read_rows(path: str | Path) -> list[tuple[str, int, str, str]]:
    """The rows of one WinoMT file, validated: gold label, index in range, 4 fields."""
    path = Path(path)
    if not path.is_file():
        raise MissingResourceError(f"WinoMT file {path} does not exist (en.txt, en_pro.txt or "
                                   "en_anti.txt of mt_gender's data/aggregates/)")
    rows = []
    # read_lines names the file and line of a non-UTF-8 byte; a line ends at \n only
    for n, line in enumerate(read_lines(path), 1):
        if not line.strip():
            raise DatasetError(path, "empty line", row=n)
        fields = line.split("\t")
        if len(fields) != 4:
            raise DatasetError(path, f"{len(fields)} tab-separated fields, expected 4 "
                               "(gender, entity index, sentence, entity)", row=n)
        gold, index, sentence, entity = fields
        if gold not in GENDERS:
            raise DatasetError(path, f"gender {gold!r} is not one of {GENDERS}", row=n,
                               column="gender")
        try:
            idx = int(index)
        except ValueError:
            raise DatasetError(path, f"entity index {index!r} is not an integer", row=n,
                               column="entity index") from None
        if not 0 <= idx < len(sentence.split()):
            raise DatasetError(path, f"entity index {idx} is outside the sentence's "
                               f"{len(sentence.split())} tokens", row=n,
                               column="entity index")
        if not entity.strip():
            raise DatasetError(path, "empty entity", row=n, column="entity")
        rows.append((gold, idx, sentence, entity))
    if not rows:
        raise DatasetError(path, "the file is empty")
    return rows


def load(path: str | Path, pro: str | Path | None = None, anti: str | Path | None = None
         ) -> pd.DataFrame:
    """``en.txt`` (and optionally the pro/anti subsets) as one row per item, with ``item_id``,
    ``gold``, ``entity_index``, ``source``, ``entity``, ``stereotype`` (pro/anti/none) and the
    workflow's ``src_lang``/``tgt_lang`` (the target depends on the prompt: empty here)."""
    rows = read_rows(path)
    frame = pd.DataFrame(rows, columns=list(COLUMNS))
    width = max(4, len(str(len(frame) - 1)))
    frame.insert(0, "item_id", [f"{i:0{width}d}" for i in range(len(frame))])
    frame["stereotype"] = "none"
    keys = list(zip(*(frame[c] for c in COLUMNS), strict=True))
    for label, subset in (("pro", pro), ("anti", anti)):
        if subset is None:
            continue
        members = set(read_rows(subset))
        found = {k for k in keys if k in members}
        if len(found) < len(members):
            outside = next(iter(members - found))
            raise DatasetError(subset, f"{len(members) - len(found)} rows are not rows of "
                               f"{path}, e.g. {outside[2]!r}")
        hit = [k in members for k in keys]
        clash = frame.loc[hit, "stereotype"].ne("none")
        if clash.any():
            raise DatasetError(subset, f"{int(clash.sum())} rows are also in the other subset")
        frame.loc[hit, "stereotype"] = label
    frame["src_lang"] = "en"
    frame["tgt_lang"] = ""
    return frame


def build(path: str, pro: str | None, anti: str | None, output: str, provenance: str) -> None:
    """Workflow stage: the published files → ``data.parquet`` (+ where it came from)."""
    with reads.recording():  # each file's hash taken as it is read (gendermt.data.reads)
        frame = load(path, pro, anti)
        files = {k: reads.identity(v) for k, v in
                 {"data": path, "pro": pro, "anti": anti}.items() if v}
    write_data_table("winomt", output, frame)
    write_json(provenance, {
        "files": files,
        "items": len(frame),
        "gold": frame["gold"].value_counts().to_dict(),
        "stereotype": frame["stereotype"].value_counts().to_dict(),
    })
    log.info("WinoMT: %d items from %s", len(frame), path)
