"""A data stage's record of the public data sets its files come from (gendermt.data.datasets)."""

from __future__ import annotations

import json
from pathlib import Path

from gendermt.data.io import write_json


def add_datasets(provenance_path: str | Path, datasets: list[dict]) -> None:
    """Add ``datasets`` (source, commit, licence, URL, size and sha256 of every file the stage
    read) to a data stage's data.json; with none (no declared data set) the file is left as
    the stage wrote it."""
    if not datasets:
        return
    path = Path(provenance_path)
    provenance = json.loads(path.read_text(encoding="utf-8"))
    provenance["datasets"] = datasets
    write_json(path, provenance)
