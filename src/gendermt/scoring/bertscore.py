"""BERTScore (bert-score) F1 per segment, ×100, behind the same interface as the other metrics.

An optional extra (``gendermt[bertscore]``); it needs torch and transformers, so it runs in the
COMET environment (``make comet-env`` installs it there). The model is a Hub id read from the
local cache, or a local folder; a model bert-score does not know needs ``num_layers``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from gendermt.errors import GenderMTError, MissingResourceError


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
