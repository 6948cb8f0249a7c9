"""Chat LLMs through vLLM, for GPU machines: the same inputs and outputs as ``hf-causal``.

vLLM is an optional extra (``pip install 'gendermt[vllm]'``) in an environment of its own:
it pins its own torch and transformers, which cannot share the CPU stack's environment.
"""

from __future__ import annotations

import logging
from typing import Any, ClassVar

import pandas as pd

from gendermt.core.errors import GenderMTError, MissingResourceError
from gendermt.translation.backends.base import Backend, Request
from gendermt.translation.backends.hf import DTYPES, locate_model

#: This module's backends, as gendermt.core.backends reads them from this file's text
#: (without importing it): name → its class and what is known before a job runs.
ABOUT = {
    "vllm": {
        "class": "VLLM",
        "style": "llm",
        "cli_setting": "model",
        "files": {"model": "model"},
        "example": ("a large LLM on a cluster's GPUs",
                    "gendermt run --model vllm:Qwen/Qwen2.5-7B-Instruct --option gpus=1 --profile"
                    " slurm"),
    },
}

log = logging.getLogger(__name__)


class VLLM(Backend):
    name: ClassVar[str] = "vllm"
    reads_data: ClassVar[bool] = False
    default_gpus: ClassVar[int] = 1
    # vLLM schedules its own batches; one call per this many requests bounds the loss to a
    # kill and keeps the progress bar moving.
    default_batch_size: ClassVar[int] = 256
    settings_keys: ClassVar[frozenset[str]] = frozenset(
        {"model", "revision", "max_new_tokens", "temperature", "top_p", "dtype", "seed",
         "tensor_parallel_size"})
    required_keys: ClassVar[frozenset[str]] = frozenset({"model"})

    @classmethod
    def check_settings(cls, settings: dict[str, Any]) -> None:
        super().check_settings(settings)
        if settings.get("dtype", "auto") not in DTYPES:
            raise GenderMTError(f"backend 'vllm': dtype must be one of {list(DTYPES)}, "
                                f"not {settings['dtype']!r}")
        if int(settings.get("tensor_parallel_size", 1)) < 1:
            raise GenderMTError("backend 'vllm': tensor_parallel_size must be at least 1")

    def __init__(self, settings: dict[str, Any], data: pd.DataFrame) -> None:
        super().__init__(settings, data)
        try:
            import vllm
        except ImportError as exc:
            raise MissingResourceError(
                "backend 'vllm' needs the vllm package, which is not installed in this "
                "environment. Install it on a GPU machine in an environment of its own "
                "(`pip install 'gendermt[vllm]'`; it brings its own torch), or use backend "
                "'hf-causal' with the same settings.") from exc
        self._vllm = vllm
        self.model_name = str(settings["model"])
        self.revision = settings.get("revision")
        self.source = locate_model(self.model_name, self.revision)
        self._llm = None

    @property
    def llm(self) -> Any:
        if self._llm is None:
            dtype = self.settings.get("dtype", "auto")
            self._llm = self._vllm.LLM(
                model=self.source, revision=self.revision,
                dtype="bfloat16" if dtype == "auto" else dtype,
                tensor_parallel_size=int(self.settings.get("tensor_parallel_size", 1)),
                seed=int(self.settings.get("seed", 0)))
            log.info("vllm: loaded %s", self.model_name)
        return self._llm

    def translate(self, batch: list[Request]) -> list[str]:
        temperature = float(self.settings.get("temperature", 0))
        params = self._vllm.SamplingParams(
            temperature=temperature, top_p=float(self.settings.get("top_p", 1.0)),
            max_tokens=int(self.settings.get("max_new_tokens", 256)),
            seed=int(self.settings.get("seed", 0)))
        conversations = [r.messages or [{"role": "user", "content": r.source}] for r in batch]
        outputs = self.llm.chat(conversations, params, use_tqdm=False)
        # vLLM's own words: "stop" (EOS or a stop string) or "length" (max_tokens reached)
        self.finish_reasons = [str(o.outputs[0].finish_reason or "n/a") for o in outputs]
        return [o.outputs[0].text.strip() for o in outputs]

    def count_tokens(self, texts: list[str]) -> int:
        tokenizer = self.llm.get_tokenizer()
        return sum(len(tokenizer.encode(t, add_special_tokens=False)) for t in texts)
