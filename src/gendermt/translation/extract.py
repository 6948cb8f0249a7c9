"""The extraction stage: a system's raw outputs → the hypotheses that are scored.

``raw/{system}/{prompt}.jsonl`` (the translation job's protected output) →
``translations/{system}/{prompt}.jsonl``: the same records with ``hypothesis`` from the
benchmark's ``postprocess`` steps, and the ``.meta.json`` beside it with those steps. Cheap,
so that changing the steps (or their code) reruns this, never a translation.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from datetime import datetime, timezone

from gendermt.data.io import read_jsonl, write_json, write_jsonl
from gendermt.translation.postprocess import pipeline


def extract_file(raw: str | os.PathLike, raw_meta: str | os.PathLike,
                 output: str | os.PathLike, meta: str | os.PathLike,
                 postprocess: Sequence[str] = (), log: str | os.PathLike | None = None
                 ) -> None:
    """Workflow stage: raw outputs → records with their ``hypothesis``."""
    apply = pipeline(postprocess)
    records = read_jsonl(raw)
    changed = 0
    out = []
    for rec in records:
        hypothesis = apply(rec["raw"])
        changed += hypothesis != rec["raw"]
        out.append({**rec, "hypothesis": hypothesis})
    write_jsonl(output, out)
    with open(raw_meta, encoding="utf-8") as fh:
        info = json.load(fh)
    write_json(meta, {**info, "postprocess": list(postprocess)})
    if log is not None:
        with open(log, "a", encoding="utf-8") as fh:
            fh.write(f"{datetime.now(timezone.utc).isoformat(timespec='seconds')} {raw} → "
                     f"{output}: {len(records)} records, post-processing {list(postprocess)} "
                     f"changed {changed}\n")
