"""BERTScore (bert-score) F1 per segment, ×100, behind the same interface as the other metrics.

An optional extra (``gendermt[bertscore]``); it needs torch and transformers, so it runs in the
COMET environment (``make comet-env`` installs it there). The model is a Hub id read from the
local cache, or a local folder; a model bert-score does not know needs ``num_layers``.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gendermt.errors import GenderMTError, MissingResourceError

log = logging.getLogger(__name__)


def bertscore(hyps: Sequence[str], refs: Sequence[str], model: str, *,
              num_layers: int | None = None, lang: str | None = None, batch_size: int = 64,
              idf: bool = False, rescale_with_baseline: bool = False, gpus: int = 0
              ) -> tuple[list[float], str]:
    """Per-segment BERTScore F1 (×100) and bert-score's hash as the signature."""
    try:
        import bert_score
        from bert_score.utils import model2layers
    except ImportError as exc:
        raise MissingResourceError(
            "BERTScore is not installed in this environment: it needs torch and transformers, "
            "so it lives in the COMET environment (make comet-env), or pip install "
            "'gendermt[bertscore]' torch==2.13.0 in a venv of its own.") from exc
    if len(hyps) != len(refs):
        raise GenderMTError(f"{len(hyps)} hypotheses but {len(refs)} references")
    if num_layers is None and model not in model2layers:
        raise GenderMTError(f"BERTScore does not know which layer of {model!r} to use: give "
                            "num_layers (scoring.bertscore.num_layers, or --bertscore-layers)")
    if not Path(model).exists() and os.environ.get("HF_HUB_OFFLINE", "0") not in ("0", ""):
        from huggingface_hub import snapshot_download

        try:
            snapshot_download(model, local_files_only=True)
        except Exception as exc:
            raise MissingResourceError(
                f"BERTScore model {model!r} is not in the local Hugging Face cache and "
                f"HF_HUB_OFFLINE is set. Download it where the Hub is reachable (`hf download "
                f"{model}`) and copy the cache here, or give a local model folder.") from exc
    (_, _, f1), hash_code = bert_score.score(
        list(hyps), list(refs), model_type=model, num_layers=num_layers, lang=lang,
        batch_size=batch_size, idf=idf, rescale_with_baseline=rescale_with_baseline,
        device="cuda" if gpus > 0 else "cpu", return_hash=True)
    return [100.0 * float(v) for v in f1.tolist()], f"bertscore:{hash_code}|F1|scale:x100"


def bertscore_benchmark(translation_files: Sequence[str | Path], data: str | Path,
                        output: str | Path, summary_path: str | Path,
                        settings: dict[str, Any]) -> None:
    """Workflow stage: every translation file of a benchmark → ``scores/bertscore.parquet``
    (``system, prompt, item_id, metric, score, signature``) and ``scores/bertscore.json``.
    One job per benchmark, as for COMET: the model loads once, each distinct (hypothesis,
    reference) pair is scored once."""
    import pandas as pd

    from gendermt.io import write_json, write_parquet

    from .comet import collect_triples

    items = pd.read_parquet(data, columns=["item_id", "source", "reference"])
    frame = collect_triples(translation_files, items)
    pairs = frame[["hypothesis", "reference"]].drop_duplicates(ignore_index=True)
    log.info("BERTScore: %d items, %d distinct pairs", len(frame), len(pairs))
    scores, signature = bertscore(
        list(pairs["hypothesis"]), list(pairs["reference"]), settings["model"],
        num_layers=settings.get("num_layers"), lang=settings.get("lang"),
        batch_size=int(settings.get("batch_size", 64)), idf=bool(settings.get("idf", False)),
        rescale_with_baseline=bool(settings.get("rescale_with_baseline", False)),
        gpus=int(settings.get("gpus", 1)))
    scored = frame.merge(pairs.assign(score=scores), on=["hypothesis", "reference"],
                         how="left", validate="many_to_one")
    write_parquet(output, scored[["system", "prompt", "item_id"]].assign(
        metric="bertscore", score=scored["score"], signature=signature))
    write_json(summary_path, {"metric": "bertscore", "signature": signature,
                              "items": len(frame), "distinct_pairs": len(pairs)})
