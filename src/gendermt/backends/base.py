"""The interface every translation backend implements.

A backend turns a batch of :class:`Request` into raw output strings, in order. The runner
(:mod:`gendermt.translate`) owns everything around that: resumption, post-processing,
progress, timing and metadata, so backends stay small.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pandas as pd


@dataclass(frozen=True)
class Request:
    item_id: str
    source: str                      # plain source text, for NMT systems
    messages: list[dict] = field(default_factory=list)  # chat form, for LLMs
    src_lang: str = ""
    tgt_lang: str = ""


class Backend(ABC):
    """A configured translation system. Subclasses set ``name`` and implement ``translate``."""

    name: ClassVar[str]
    #: GPUs one job of this backend asks for unless the system's config says otherwise.
    default_gpus: ClassVar[int] = 0
    default_batch_size: ClassVar[int] = 64

    def __init__(self, settings: dict[str, Any], data: pd.DataFrame) -> None:
        self.settings = dict(settings)
        self.data = data
        self.batch_size = int(settings.get("batch_size", self.default_batch_size))

    def identity(self) -> dict[str, Any]:
        """What determines this backend's outputs (recorded beside them; a cache key later)."""
        return {"backend": self.name, **{k: v for k, v in sorted(self.settings.items())
                                         if k not in ("batch_size", "gpus")}}

    @abstractmethod
    def translate(self, batch: list[Request]) -> list[str]:
        """Raw outputs for ``batch``, one per request, in the same order."""
