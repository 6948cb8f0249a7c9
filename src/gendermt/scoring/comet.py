"""COMET (unbabel-comet) scores, in a job of its own that asks for a GPU.

COMET is an optional extra with its own environment (``envs/comet.yaml``): it pins numpy<2
and transformers<5, which the rest of the study does not. Scores are stored ×100 so that they
sit on the same scale as the paper's tables; the signature says so.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

import pandas as pd

from gendermt.errors import MissingResourceError
from gendermt.io import read_jsonl, write_json, write_parquet

log = logging.getLogger(__name__)


def load_model(model: str, cache_dir: str | None = None):
    """A COMET model from a local checkpoint path or a Hub id (through the local cache)."""
    try:
        import comet
    except ImportError as exc:
        raise MissingResourceError(
            "COMET is not installed in this environment. It conflicts with the default stack, "
            "so it lives in its own: run Snakemake with --software-deployment-method conda "
            "(envs/comet.yaml), or create a separate venv with pip install 'gendermt[comet]'."
        ) from exc
    if Path(model).exists():
        path = Path(model)
        if path.is_dir():
            path = path / "checkpoints" / "model.ckpt"
        return comet.load_from_checkpoint(str(path)), comet.__version__
    try:
        path = comet.download_model(model, saving_directory=cache_dir)
    except Exception as exc:
        # COMET's own last line here ("model not supported") hides the real cause.
        offline = os.environ.get("HF_HUB_OFFLINE", "0") not in ("0", "")
        raise MissingResourceError(
            f"COMET model {model!r} is not in the local cache ({cache_dir or 'HF_HOME'}) and "
            f"could not be downloaded{' (HF_HUB_OFFLINE is set)' if offline else ''}: "
            f"{type(exc).__name__}: {exc}. Download it where the Hub is reachable "
            f"(`hf download {model}`) and copy the cache here, or set scoring.comet.model to "
            "a local checkpoint (…/checkpoints/model.ckpt).") from exc
    return comet.load_from_checkpoint(path), comet.__version__


def comet_file(translations: str | Path, data: str | Path, output: str | Path,
               summary_path: str | Path, settings: dict[str, Any]) -> None:
    """Workflow stage: a translation file → ``scores/{system}/{prompt}.comet.parquet``."""
    hyps = pd.DataFrame(read_jsonl(translations))[["item_id", "hypothesis"]]
    frame = pd.read_parquet(data, columns=["item_id", "source", "reference"]).merge(
        hyps, on="item_id", validate="one_to_one")
    model, version = load_model(settings["model"], settings.get("cache_dir"))
    # Identical (src, mt, ref) triples get identical scores: score each once.
    triples = frame[["source", "hypothesis", "reference"]].drop_duplicates()
    log.info("COMET: %d items, %d distinct triples", len(frame), len(triples))
    out = model.predict([{"src": s, "mt": h, "ref": r} for s, h, r in triples.itertuples(
        index=False)], batch_size=int(settings.get("batch_size", 16)),
        gpus=int(settings.get("gpus", 1)), progress_bar=True)
    triples = triples.assign(score=[100.0 * s for s in out.scores])
    scored = frame.merge(triples, on=["source", "hypothesis", "reference"], how="left")
    signature = f"comet:{settings['model']}|unbabel-comet:{version}|scale:x100"
    write_parquet(output, pd.DataFrame({"item_id": scored["item_id"], "metric": "comet",
                                        "score": scored["score"], "signature": signature}))
    write_json(summary_path, {"translations": str(translations), "metrics": {"comet": {
        "signature": signature, "corpus": {"all": float(scored["score"].mean())},
        "n": {"all": len(scored)}, "distinct_triples": len(triples)}}})
