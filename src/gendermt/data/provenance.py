"""A data stage's record of the public data sets its files come from (gendermt.data.datasets)."""

from __future__ import annotations

import json
from pathlib import Path

from gendermt.data.io import write_json
from gendermt.data.reads import Ledger, read_datasets


def add_datasets(provenance_path: str | Path, datasets: list[dict],
                 ledger: Ledger | None = None) -> None:
    """Add ``datasets`` (source, commit, licence, URL, size and sha256 of every file the stage
    read) to a data stage's data.json; with none (no declared data set) the file is left as
    the stage wrote it. With the stage's ``ledger`` (gendermt.data.reads.checking), each
    file's size and sha256 are those of the bytes it read, not the manifest's."""
    if ledger is not None:
        datasets = read_datasets(datasets, ledger)
    if not datasets:
        return
    path = Path(provenance_path)
    provenance = json.loads(path.read_text(encoding="utf-8"))
    provenance["datasets"] = datasets
    write_json(path, provenance)
