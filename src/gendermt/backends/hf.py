"""Hugging Face models run in the job's own process: seq2seq NMT and chat LLMs.

Weights come from a local folder, the local Hugging Face cache (downloaded there when the
Hub is reachable), or a GGUF file (``hf-causal``; converted once, :mod:`.gguf`). The model
is loaded on the first batch, so a job whose requests are all in the request cache never
loads it; whether the weights are present is checked at once.
On a GPU the model runs in bfloat16, on a CPU in float32 (``dtype`` overrides).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any, ClassVar

import pandas as pd

from gendermt.errors import GenderMTError, MissingResourceError

from . import gguf, model_folder
from .base import Backend, Request

log = logging.getLogger(__name__)

DTYPES = ("auto", "bfloat16", "float16", "float32")
# End-of-turn markers of the chat families the studies use (Llama 3, Gemma, ChatML, Phi);
# generation stops at whichever the tokenizer has, besides its EOS.
END_OF_TURN = ("<|eot_id|>", "<end_of_turn>", "<|im_end|>", "<|end|>", "<|end_of_text|>")


def _offline() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "").lower() in ("1", "true", "yes", "on")


def locate_model(model: str, revision: str | None) -> str:
    """A local folder as is; a hub id when its config is in the local cache or the Hub can be
    asked. Fails at once, naming the model and how to provide it, when neither holds."""
    if Path(model).expanduser().is_dir():
        return str(Path(model).expanduser())
    try:
        from huggingface_hub import try_to_load_from_cache
    except ImportError as exc:  # transformers depends on it, so this is a broken install
        raise MissingResourceError("huggingface_hub is not installed: pip install "
                                   "'gendermt[hf]'") from exc
    cached = try_to_load_from_cache(model, "config.json", revision=revision)
    if isinstance(cached, str):
        return model
    if _offline():
        where = (os.environ.get("HF_HUB_CACHE") or os.environ.get("HF_HOME")
                 or "~/.cache/huggingface")
        rev = f" (revision {revision})" if revision else ""
        raise MissingResourceError(
            f"model {model!r}{rev} is not in the local Hugging Face cache ({where}) and the Hub "
            f"is off (HF_HUB_OFFLINE=1). Download it where the Hub is reachable "
            f"(`hf download {model}{' --revision ' + revision if revision else ''}`) and copy "
            f"the cache here, or set the system's `model:` to a local folder with its weights.")
    return model


def _load_error(model: str, revision: str | None, exc: Exception) -> MissingResourceError:
    rev = f" (revision {revision})" if revision else ""
    return MissingResourceError(
        f"could not load model {model!r}{rev}: {exc}. With no network the weights must be in "
        f"the local Hugging Face cache (`hf download {model}` where the Hub is reachable, then "
        f"copy the cache) or in a local folder named by the system's `model:`.")


def finish_reasons(new_tokens: Any, stop_ids: list[int]) -> list[str]:
    """Per generated row: ``eos`` when it holds a stop token (EOS or end of turn), else
    ``length``: generation ended before the model did (the ``max_new_tokens`` budget, or
    the model's own length limit), so the output is cut off."""
    stops = set(stop_ids)
    return ["eos" if stops.intersection(row) else "length" for row in new_tokens.tolist()]


def torch_cuda_count() -> int:
    import torch

    return torch.cuda.device_count()


class HFBackend(Backend):
    """What the two Hugging Face backends share: settings, device, dtype, loading."""

    default_gpus: ClassVar[int] = 1
    default_batch_size: ClassVar[int] = 16
    required_keys: ClassVar[frozenset[str]] = frozenset({"model"})

    #: Whether ``model`` may name a GGUF file (converted by :mod:`.gguf` for causal LMs).
    reads_gguf: ClassVar[bool] = False

    @classmethod
    def check_settings(cls, settings: dict[str, Any]) -> None:
        super().check_settings(settings)
        if settings.get("dtype", "auto") not in DTYPES:
            raise GenderMTError(f"backend {cls.name!r}: dtype must be one of {list(DTYPES)}, "
                                f"not {settings['dtype']!r}")
        if gguf.is_gguf(str(settings.get("model", ""))):
            if not cls.reads_gguf:
                raise GenderMTError(f"backend {cls.name!r}: a GGUF file holds a causal LM; "
                                    f"use backend 'hf-causal' for {settings['model']!r}")
            if settings.get("revision"):
                raise GenderMTError(f"backend {cls.name!r}: a GGUF file has no revision "
                                    f"(its sha256 is recorded instead); drop `revision`")

    def __init__(self, settings: dict[str, Any], data: pd.DataFrame) -> None:
        super().__init__(settings, data)
        self.model_name = str(settings["model"])
        self.revision = settings.get("revision")
        self.gguf_path = self.gguf_sha256 = None
        if gguf.is_gguf(self.model_name):
            # Hashed at once (~0.3 s per 100 MB): it is part of the identity, so that a
            # changed file is never answered from the cache; converted only when loaded.
            self.gguf_path = gguf.locate(self.model_name)
            self.gguf_sha256 = gguf.sha256_of([self.gguf_path])
            self.source = None
        else:
            self.source = locate_model(self.model_name, self.revision)
        # A local folder's identity is its files' hash (weights, tokenizer, chat template):
        # a changed folder at the same path is never answered from the cache.
        self.folder_sha256 = (model_folder.folder_sha256(self.source)
                              if self.source and Path(self.source).is_dir() else None)
        self.max_new_tokens = int(settings.get("max_new_tokens", 256))
        self._model = None
        self._tokenizer = None

    def identity(self) -> dict[str, Any]:
        found = super().identity()
        if self.gguf_sha256:
            found["gguf_sha256"] = self.gguf_sha256
        if self.folder_sha256:
            found["folder_sha256"] = self.folder_sha256
        return found

    def _device_and_dtype(self) -> tuple[Any, Any]:
        import torch

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        name = self.settings.get("dtype", "auto")
        if name == "auto":
            name = "bfloat16" if device.type == "cuda" and torch.cuda.is_bf16_supported() \
                else "float32"
        return device, getattr(torch, name)

    def _from_pretrained(self, loader: Any, **kwargs: Any) -> Any:
        try:
            return loader.from_pretrained(self.source, revision=self.revision, **kwargs)
        except OSError as exc:
            raise _load_error(self.model_name, self.revision, exc) from exc

    def load(self) -> None:
        import torch
        from transformers import AutoTokenizer

        if self.threads:
            torch.set_num_threads(self.threads)
        if self.gguf_path is not None:
            self.source = str(gguf.converted_folder(self.gguf_path, self.gguf_sha256))
        device, dtype = self._device_and_dtype()
        self._tokenizer = self._from_pretrained(AutoTokenizer, **self._tokenizer_kwargs())
        if device.type == "cuda" and torch_cuda_count() > 1:
            # A model too large for one GPU (70B, 8x7B) is spread over the job's GPUs.
            self._model = self._from_pretrained(self._model_class(), dtype=dtype,
                                                device_map="auto").eval()
            device = self._model.device  # inputs go where the first layers are
        else:
            self._model = self._from_pretrained(self._model_class(), dtype=dtype).to(device)
            self._model.eval()
        self.device = device
        self._resolved = {"commit": getattr(self._model.config, "_commit_hash", None),
                          "device": str(device), "dtype": str(dtype).replace("torch.", ""),
                          "threads": torch.get_num_threads()}
        if self.gguf_path is not None:
            self._resolved.update(gguf_file=str(self.gguf_path), gguf_sha256=self.gguf_sha256,
                                  converted=self.source)
        elif Path(self.source).is_dir():
            # A local folder has no commit: its weights' hash says which weights ran.
            self._resolved["weights_sha256"] = gguf.weights_sha256(Path(self.source))
        log.info("%s: loaded %s%s on %s (%s)", self.name, self.model_name,
                 f"@{self.revision}" if self.revision else "", device, dtype)

    def _tokenizer_kwargs(self) -> dict[str, Any]:
        return {}

    def provenance(self) -> dict[str, Any]:
        # The commit the weights came from (None for a local folder); only once loaded.
        return dict(getattr(self, "_resolved", {}))

    def _model_class(self) -> Any:
        raise NotImplementedError

    @property
    def tokenizer(self) -> Any:
        if self._tokenizer is None:
            self.load()
        return self._tokenizer

    @property
    def model(self) -> Any:
        if self._model is None:
            self.load()
        return self._model

    def count_tokens(self, texts: list[str]) -> int:
        return sum(len(ids) for ids in self.tokenizer(texts, add_special_tokens=False)
                   ["input_ids"])


class HFSeq2Seq(HFBackend):
    """Encoder-decoder NMT (NLLB, M2M100, Marian, mBART) on the plain source text.

    NLLB, M2M100 and mBART need ``src_lang``/``tgt_lang`` in their own codes; the target
    language is forced as the first generated token. A Marian model is one language pair
    and needs neither.
    """

    name: ClassVar[str] = "hf-seq2seq"
    prompted: ClassVar[bool] = False
    settings_keys: ClassVar[frozenset[str]] = frozenset(
        {"model", "revision", "src_lang", "tgt_lang", "num_beams", "max_new_tokens", "dtype"})

    def _model_class(self) -> Any:
        from transformers import AutoModelForSeq2SeqLM

        return AutoModelForSeq2SeqLM

    def _tokenizer_kwargs(self) -> dict[str, Any]:
        return {"src_lang": self.settings["src_lang"]} if "src_lang" in self.settings else {}

    def load(self) -> None:
        super().load()
        tok, tgt = self._tokenizer, self.settings.get("tgt_lang")
        self.forced_bos = None
        if tgt is not None:
            # M2M100 wraps codes (en → __en__); NLLB and mBART use them as tokens.
            token_id = tok.get_lang_id(tgt) if hasattr(tok, "get_lang_id") \
                else tok.convert_tokens_to_ids(tgt)
            if token_id is None or token_id == tok.unk_token_id:
                raise GenderMTError(f"hf-seq2seq: {self.model_name} has no language code "
                                    f"{tgt!r} (tgt_lang); use the model family's codes, e.g. "
                                    f"NLLB fra_Latn, M2M100 fr, mBART fr_XX")
            self.forced_bos = token_id

    def translate(self, batch: list[Request]) -> list[str]:
        import torch

        tok, model = self.tokenizer, self.model
        enc = tok([r.source for r in batch], return_tensors="pt", padding=True,
                  truncation=True).to(self.device)
        kwargs: dict[str, Any] = {"max_new_tokens": self.max_new_tokens, "do_sample": False,
                                  "num_beams": int(self.settings.get("num_beams", 1))}
        if self.forced_bos is not None:
            kwargs["forced_bos_token_id"] = self.forced_bos
        with torch.inference_mode():
            out = model.generate(**enc, **kwargs)
        stops = [tok.eos_token_id] if tok.eos_token_id is not None else []
        # the decoder's start token (and a forced language code) lead each row
        lead = 2 if self.forced_bos is not None else 1
        self.finish_reasons = finish_reasons(out[:, lead:], stops)
        return [t.strip() for t in tok.batch_decode(out, skip_special_tokens=True)]


class HFCausal(HFBackend):
    """A chat LLM through its tokenizer's chat template, on the request's ``messages``;
    left padding, batched generation, stops at the end of the assistant's turn."""

    name: ClassVar[str] = "hf-causal"
    reads_gguf: ClassVar[bool] = True
    settings_keys: ClassVar[frozenset[str]] = frozenset(
        {"model", "revision", "max_new_tokens", "temperature", "top_p", "dtype", "seed"})

    def _model_class(self) -> Any:
        from transformers import AutoModelForCausalLM

        return AutoModelForCausalLM

    def _tokenizer_kwargs(self) -> dict[str, Any]:
        return {"padding_side": "left"}

    def load(self) -> None:
        super().load()
        tok = self._tokenizer
        tok.padding_side = "left"
        if tok.pad_token is None:
            tok.pad_token = tok.eos_token
        if not getattr(tok, "chat_template", None):
            raise GenderMTError(f"hf-causal: {self.model_name} has no chat template; use an "
                                f"instruction-tuned (chat) model")
        stops = {tok.eos_token_id}
        gen_eos = self._model.generation_config.eos_token_id
        stops.update(gen_eos if isinstance(gen_eos, list) else [gen_eos])
        vocab = tok.get_vocab()
        stops.update(vocab[t] for t in END_OF_TURN if t in vocab)
        self.stop_ids = sorted(i for i in stops if i is not None)

    def render(self, request: Request) -> str:
        messages = request.messages or [{"role": "user", "content": request.source}]
        try:
            return self.tokenizer.apply_chat_template(messages, tokenize=False,
                                                      add_generation_prompt=True)
        except Exception as exc:  # jinja2 raises TemplateError from the template itself
            if not any(m.get("role") == "system" for m in messages):
                raise
            # Some templates (Gemma) refuse a system turn: prepend it to the first user turn.
            log.debug("%s: folding the system message into the user turn (%s)",
                      self.model_name, exc)
            system = "\n\n".join(m["content"] for m in messages if m["role"] == "system")
            rest = [dict(m) for m in messages if m["role"] != "system"]
            rest[0]["content"] = f"{system}\n\n{rest[0]['content']}"
            return self.tokenizer.apply_chat_template(rest, tokenize=False,
                                                      add_generation_prompt=True)

    def translate(self, batch: list[Request]) -> list[str]:
        import torch

        tok, model = self.tokenizer, self.model
        texts = [self.render(r) for r in batch]
        # The template already holds the BOS token where the model wants one.
        enc = tok(texts, return_tensors="pt", padding=True,
                  add_special_tokens=False).to(self.device)
        temperature = float(self.settings.get("temperature", 0))
        kwargs: dict[str, Any] = {"max_new_tokens": self.max_new_tokens,
                                  "eos_token_id": self.stop_ids,
                                  "pad_token_id": tok.pad_token_id}
        if temperature > 0:
            torch.manual_seed(int(self.settings.get("seed", 0)))
            kwargs.update(do_sample=True, temperature=temperature,
                          top_p=float(self.settings.get("top_p", 1.0)))
        else:
            kwargs.update(do_sample=False, temperature=None, top_p=None, top_k=None)
        with torch.inference_mode():
            out = model.generate(**enc, **kwargs)
        new = out[:, enc["input_ids"].shape[1]:]
        self.finish_reasons = finish_reasons(new, self.stop_ids)
        return [t.strip() for t in tok.batch_decode(new, skip_special_tokens=True)]
