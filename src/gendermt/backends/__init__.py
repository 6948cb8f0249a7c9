"""Translation backends, looked up by the ``backend`` name a system has in config."""

from __future__ import annotations

from typing import Any

import pandas as pd

from gendermt.errors import GenderMTError

from .apertium import Apertium
from .base import Backend, Request
from .hf import HFCausal, HFSeq2Seq
from .offline import CopySource, ReferenceOracle
from .openai_api import OpenAICompatible
from .rule_rewriter import RuleRewriter
from .stored import Stored
from .vllm_backend import VLLM

BACKENDS: dict[str, type[Backend]] = {cls.name: cls for cls in (ReferenceOracle, CopySource,
                                                                 RuleRewriter, Stored)}
# Model backends: heavy imports (torch, vllm) happen only when a job builds one.
BACKENDS.update({cls.name: cls for cls in (HFSeq2Seq, HFCausal, VLLM, OpenAICompatible,
                                           Apertium)})


def system_gpus(settings: dict[str, Any]) -> int:
    """GPUs a translation job of this system asks for (``gpus`` in config, else the default)."""
    if "gpus" in settings:
        return int(settings["gpus"])
    cls = BACKENDS.get(settings.get("backend", ""))
    return cls.default_gpus if cls else 0


def system_kind(settings: dict[str, Any]) -> str:
    """``model``, ``baseline`` or ``oracle``: the system's ``kind`` in config, else its
    backend's (reference oracles are oracles, copy-source a baseline, the rest models)."""
    if "kind" in settings:
        return str(settings["kind"])
    cls = BACKENDS.get(settings.get("backend", ""))
    return cls.default_kind if cls else "model"


def backend_class(settings: dict[str, Any]) -> type[Backend]:
    name = settings.get("backend")
    if name not in BACKENDS:
        raise GenderMTError(f"unknown backend {name!r}; available: {', '.join(sorted(BACKENDS))}")
    return BACKENDS[name]


def check_system(settings: dict[str, Any]) -> None:
    """Fail early (at workflow start-up) on an unknown backend or bad settings."""
    backend_class(settings).check_settings(settings)


def build_backend(settings: dict[str, Any], data: pd.DataFrame,
                  context: dict[str, str] | None = None) -> Backend:
    """The backend of one job; ``context`` (``benchmark``, ``prompt``) fills in settings that
    depend on the job, such as a ``stored`` system's file."""
    cls = backend_class(settings)
    cls.check_settings(settings)
    return cls(cls.resolve_settings(settings, context or {}), data)


__all__ = ["BACKENDS", "Backend", "Request", "build_backend", "check_system", "system_gpus",
           "system_kind"]
