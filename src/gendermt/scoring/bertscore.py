"""BERTScore (bert-score) F1 per segment, ×100, behind the same interface as the other metrics.

An optional extra (``gendermt[bertscore]``); it needs torch and transformers, so it runs in the
COMET environment (``make comet-env`` installs it there). The model is a Hub id read from the
local cache, or a local folder; a model bert-score does not know needs ``num_layers``.
In the workflow, scores are kept in the score store (:mod:`gendermt.scoring.score_store`) by
model, revision, options and bert-score's version, so that adding a system scores only its
new pairs (except with ``idf``: idf weights depend on the set of references scored together).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gendermt.core.errors import GenderMTError, MissingResourceError

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


def model_revision(model: str) -> str:
    """What identifies the weights of ``model``: a local folder's files (names, sizes,
    modification times), or the Hub snapshot's commit in the local cache ("hub:unknown" when
    it is not there: nothing stored matches, and scoring says what is missing)."""
    path = Path(model).expanduser()
    if path.exists():
        files = sorted(f for f in path.rglob("*") if f.is_file()) if path.is_dir() else [path]
        stats = [(str(f.relative_to(path) if path.is_dir() else f.name), f.stat().st_size,
                  f.stat().st_mtime_ns) for f in files]
        return "files:" + hashlib.sha256(repr(stats).encode()).hexdigest()[:16]
    try:
        from huggingface_hub import snapshot_download

        return "hub:" + Path(snapshot_download(model, local_files_only=True)).name
    except Exception:
        return "hub:unknown"


def bertscore_benchmark(translation_files: Sequence[str | Path], data: str | Path,
                        output: str | Path, summary_path: str | Path,
                        settings: dict[str, Any], store_dir: str | Path | None = None) -> None:
    """Workflow stage: every translation file of a benchmark → ``scores/bertscore.parquet``
    (``system, prompt, item_id, metric, score, signature``) and ``scores/bertscore.json``.
    One job per benchmark, as for COMET: the model loads once, each distinct (hypothesis,
    reference) pair is scored once; with ``store_dir``, pairs already in the score store are
    read from it."""
    from importlib.metadata import PackageNotFoundError, version

    import pandas as pd

    from gendermt.data.io import write_json, write_parquet
    from gendermt.scoring.comet import collect_triples
    from gendermt.scoring.score_store import ScoreStore, score_through_store

    try:
        scorer_version = version("bert-score")
    except PackageNotFoundError:
        scorer_version = "absent"  # nothing stored matches; scoring says what is missing
    items = pd.read_parquet(data, columns=["item_id", "source", "reference"])
    frame = collect_triples(translation_files, items)
    pairs = frame[["hypothesis", "reference"]].drop_duplicates(ignore_index=True)
    idf = bool(settings.get("idf", False))
    options = {k: settings.get(k) for k in ("num_layers", "lang", "rescale_with_baseline")}
    metric_id = (f"bertscore|{settings['model']}|{model_revision(settings['model'])}|"
                 f"{json.dumps(options, sort_keys=True)}|bert-score:{scorer_version}")
    if idf:
        log.info("BERTScore with idf: the score store is not used (idf weights depend on the "
                 "references scored together)")
    store = ScoreStore(None if idf else store_dir)
    signatures: list[str] = []

    def score(segments: list) -> list[float]:
        values, signature = bertscore(
            [h for h, _ in segments], [r for _, r in segments], settings["model"],
            num_layers=settings.get("num_layers"), lang=settings.get("lang"),
            batch_size=int(settings.get("batch_size", 64)), idf=idf,
            rescale_with_baseline=bool(settings.get("rescale_with_baseline", False)),
            gpus=int(settings.get("gpus", 1)))
        signatures.append(signature)
        return values

    # with idf, all pairs in one call: the idf weights come from all of them
    scores, scored = score_through_store(
        store, metric_id, list(pairs.itertuples(index=False, name=None)), score,
        chunk=max(len(pairs), 1) if idf else 4096)
    signature = signatures[0] if signatures else bertscore_signature(settings)
    log.info("BERTScore: %d items, %d distinct pairs; %d read from the score store %s, "
             "%d scored", len(frame), len(pairs), len(pairs) - scored, store.path or "(none)",
             scored)
    scored_frame = frame.merge(pairs.assign(score=scores), on=["hypothesis", "reference"],
                               how="left", validate="many_to_one")
    write_parquet(output, scored_frame[["system", "prompt", "item_id"]].assign(
        metric="bertscore", score=scored_frame["score"], signature=signature))
    write_json(summary_path, {"metric": "bertscore", "signature": signature,
                              "items": len(frame), "distinct_pairs": len(pairs),
                              "scored_this_run": scored, "from_store": len(pairs) - scored})


def bertscore_signature(settings: dict[str, Any]) -> str:
    """bert-score's hash of these settings, as :func:`bertscore` writes it, without scoring
    (when every pair came from the score store)."""
    from bert_score.utils import get_hash, model2layers

    layers = settings.get("num_layers") or model2layers.get(settings["model"])
    hash_code = get_hash(settings["model"], layers,
                         bool(settings.get("idf", False)),
                         bool(settings.get("rescale_with_baseline", False)),
                         use_custom_baseline=False, use_fast_tokenizer=False)
    return f"bertscore:{hash_code}|F1|scale:x100"
