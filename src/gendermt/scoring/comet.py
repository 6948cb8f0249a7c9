"""COMET (unbabel-comet) scores: one GPU job per benchmark, each distinct triple scored once.

Why one job per benchmark over all its translation files, rather than one per system × prompt:
the same (source, hypothesis, reference) triple recurs across prompts and systems (a system
that ignores the prompt, oracles, identical outputs), and loading wmt22-comet-da (2.3 GB)
costs tens of seconds per job. One job scores the distinct triples in large batches and
writes every run's scores. Scores are kept in the score store
(:mod:`gendermt.scoring.score_store`, under ``cache.dir``) by model id, revision, COMET's
version and the triple, so that adding a system scores only its new triples; the model is
not even loaded when every triple is in the store.

COMET is an optional extra with its own environment (``envs/comet.yaml``; ``make comet-env``
for a venv): it pins numpy<2 and transformers<5, which the rest of the study does not. Scores
are stored ×100, on the paper's percent scale; the signature says so.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from gendermt.core.errors import GenderMTError, MissingResourceError
from gendermt.data.io import read_jsonl, write_json, write_parquet
from gendermt.scoring.score_store import ScoreStore, score_through_store

log = logging.getLogger(__name__)

TRIPLE = ["source", "hypothesis", "reference"]


def _offline() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "0").lower() not in ("0", "", "false", "no")


def checkpoint_path(model: str) -> Path | None:
    """The ``model.ckpt`` of a local checkpoint (its file, or the folder holding
    ``checkpoints/model.ckpt``), or None when ``model`` is not a local path."""
    path = Path(model).expanduser()
    if not path.exists():
        return None
    if path.is_dir():
        path = path / "checkpoints" / "model.ckpt"
    if not path.is_file():
        raise MissingResourceError(f"COMET checkpoint folder {model} has no checkpoints/model.ckpt")
    return path


def _how_to_provide(model: str, cache_dir: str | None) -> str:
    return (f"Download it where the Hub is reachable (`hf download {model}`, or "
            f"`comet-score --model {model}` once) and copy the Hugging Face cache here "
            f"({cache_dir or 'HF_HOME'}), or set scoring.comet.model to a local checkpoint "
            "(a folder with hparams.yaml and checkpoints/model.ckpt, or the .ckpt file).")


def _import_comet():
    try:
        import comet
    except ImportError as exc:
        raise MissingResourceError(
            "COMET is not installed in this environment. It conflicts with the default stack, "
            "so it lives in its own: run Snakemake with --software-deployment-method conda "
            "(envs/comet.yaml), or create a separate venv (make comet-env, or pip install "
            "'gendermt[comet]' torch==2.13.0 in a fresh venv).") from exc
    return comet


def resolve_checkpoint(model: str, cache_dir: str | None = None) -> tuple[Path, str]:
    """The ``model.ckpt`` of a local checkpoint path or a Hub id (the local cache first) and
    its revision (the Hub snapshot's commit; a local file's size and mtime), without loading
    it.

    Fails at once, with our own message, when the model is neither a local checkpoint nor in
    the cache and the Hub is not reachable: COMET's own last line there ("model not supported")
    hides the real cause.
    """
    _import_comet()
    local = checkpoint_path(model)
    if local is not None:
        stat = local.stat()
        return local, f"file:{stat.st_size}:{stat.st_mtime_ns}"
    from huggingface_hub import snapshot_download

    try:  # the local cache: instant, no network
        folder = snapshot_download(model, cache_dir=cache_dir, local_files_only=True)
    except Exception as cached_exc:
        if _offline():
            raise MissingResourceError(
                f"COMET model {model!r} is not in the local Hugging Face cache "
                f"({cache_dir or 'HF_HOME'}) and HF_HUB_OFFLINE is set, so it cannot be "
                f"downloaded. {_how_to_provide(model, cache_dir)}") from cached_exc
        try:
            # what comet.download_model does, without its catch-all that reports any failure
            # as "model not supported"
            folder = snapshot_download(model, cache_dir=cache_dir)
        except Exception as exc:
            raise MissingResourceError(
                f"COMET model {model!r} is not in the local cache ({cache_dir or 'HF_HOME'}) "
                f"and could not be downloaded ({type(exc).__name__}: {exc}). "
                f"{_how_to_provide(model, cache_dir)}") from exc
    # a Hub snapshot folder is named by its commit
    return Path(folder) / "checkpoints" / "model.ckpt", f"hub:{Path(folder).name}"


def load_model(model: str, cache_dir: str | None = None):
    """A COMET model from a local checkpoint path or a Hub id (the local cache first), and
    COMET's version."""
    comet = _import_comet()
    ckpt, _ = resolve_checkpoint(model, cache_dir)
    return _load(comet, ckpt, model), comet.__version__


def _load(comet, ckpt: Path, model: str):
    """``comet.load_from_checkpoint``; its encoder's tokenizer and config (``pretrained_model``
    in hparams.yaml, e.g. xlm-roberta-large) come from the cache, or the Hub when online."""
    try:
        return comet.load_from_checkpoint(str(ckpt), local_files_only=_offline())
    except OSError as exc:
        raise MissingResourceError(
            f"COMET checkpoint {ckpt} loaded, but its encoder's tokenizer and configuration "
            "(`pretrained_model` in its hparams.yaml) are not in the local Hugging Face cache"
            f"{' and HF_HUB_OFFLINE is set' if _offline() else ''}: {exc}. "
            f"{_how_to_provide(model, None)}") from exc


def run_of(translations: str | Path) -> tuple[str, str]:
    """(system, prompt) of ``.../translations/{system}/{prompt}.jsonl``."""
    path = Path(translations)
    return path.parent.name, path.name.split(".", 1)[0]


def collect_triples(translation_files: Sequence[str | Path], data: pd.DataFrame
                    ) -> pd.DataFrame:
    """Every run's items: ``system, prompt, item_id, source, hypothesis, reference``."""
    parts = []
    for path in translation_files:
        system, prompt = run_of(path)
        hyps = pd.DataFrame(read_jsonl(path))
        if hyps.empty or "hypothesis" not in hyps.columns:
            raise GenderMTError(f"{path}: no hypotheses")
        part = data[["item_id", "source", "reference"]].merge(
            hyps[["item_id", "hypothesis"]], on="item_id", how="left", validate="one_to_one")
        missing = int(part["hypothesis"].isna().sum())
        if missing:
            raise GenderMTError(f"{path}: {missing} of {len(part)} items have no hypothesis")
        parts.append(part.assign(system=system, prompt=prompt))
    columns = ["system", "prompt", "item_id", *TRIPLE]
    return pd.concat(parts, ignore_index=True)[columns] if parts else pd.DataFrame(
        columns=columns)


def distinct_triples(frame: pd.DataFrame) -> pd.DataFrame:
    return frame[TRIPLE].drop_duplicates(ignore_index=True)


def score_triples(model, triples: pd.DataFrame, batch_size: int, gpus: int) -> list[float]:
    """COMET scores (×100) of ``triples``, in their order, with the model's ``predict``."""
    if triples.empty:
        return []
    samples = [{"src": s, "mt": h, "ref": r} for s, h, r in triples[TRIPLE].itertuples(
        index=False)]
    out = model.predict(samples, batch_size=batch_size, gpus=gpus, progress_bar=True)
    return [100.0 * float(s) for s in out.scores]


def comet_benchmark(translation_files: Sequence[str | Path], data: str | Path,
                    output: str | Path, summary_path: str | Path,
                    settings: dict[str, Any], normalize: str | None = None,
                    store_dir: str | Path | None = None) -> None:
    """Workflow stage: every translation file of a benchmark → ``scores/comet.parquet``
    (``system, prompt, item_id, metric, score, signature``) and ``scores/comet.json``.
    ``normalize``: a hypothesis normaliser (:mod:`.normalization`), recorded in the signature.

    With ``store_dir``, triples already in the score store there are read from it and only
    the others are scored (and added to it)."""
    from gendermt.scoring.normalization import normalize_all, signed

    # The model first: without it, stop before reading anything (loading waits until a
    # triple is missing from the store).
    comet = _import_comet()
    version = comet.__version__
    ckpt, revision = resolve_checkpoint(settings["model"], settings.get("cache_dir"))
    items = pd.read_parquet(data, columns=["item_id", "source", "reference"])
    frame = collect_triples(translation_files, items)
    if normalize is not None:
        frame = frame.assign(hypothesis=normalize_all(frame["hypothesis"], normalize))
    triples = distinct_triples(frame)
    batch_size, gpus = int(settings.get("batch_size", 16)), int(settings.get("gpus", 1))
    loaded: list[Any] = []

    def score(segments: list) -> list[float]:
        if not loaded:
            loaded.append(_load(comet, ckpt, settings["model"]))
        return score_triples(loaded[0], pd.DataFrame(segments, columns=TRIPLE), batch_size,
                             gpus)

    metric_id = f"comet|{settings['model']}|{revision}|unbabel-comet:{version}"
    store = ScoreStore(store_dir)
    scores, scored = score_through_store(
        store, metric_id, list(triples[TRIPLE].itertuples(index=False, name=None)), score)
    log.info("COMET: %d runs, %d items, %d distinct triples (%d calls saved); %d read from "
             "the score store %s, %d scored", len(translation_files), len(frame),
             len(triples), len(frame) - len(triples), len(triples) - scored,
             store.path or "(none)", scored)
    scored_frame = frame.merge(triples.assign(score=scores), on=TRIPLE, how="left",
                               validate="many_to_one")
    signature = signed(f"comet:{settings['model']}|unbabel-comet:{version}|scale:x100",
                       normalize)
    write_parquet(output, scored_frame[["system", "prompt", "item_id"]].assign(
        metric="comet", score=scored_frame["score"], signature=signature))
    runs = {f"{s}/{p}": {"corpus": {"all": float(part["score"].mean())}, "n": {"all": len(part)}}
            for (s, p), part in scored_frame.groupby(["system", "prompt"], sort=False)}
    write_json(summary_path, {"metric": "comet", "signature": signature, "runs": runs,
                              "items": len(frame), "distinct_triples": len(triples),
                              "calls_saved": len(frame) - len(triples),
                              "scored_this_run": scored,
                              "from_store": len(triples) - scored,
                              "model_revision": revision,
                              "hypothesis_normalization": normalize})
