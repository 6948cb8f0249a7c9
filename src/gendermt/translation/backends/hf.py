"""Hugging Face models run in the job's own process: seq2seq NMT, chat LLMs and base LLMs.

Weights come from a local folder, the local Hugging Face cache (downloaded there when the
Hub is reachable), or a GGUF file (``hf-causal``; converted once, :mod:`.gguf`). The model
is loaded on the first batch, so a job whose requests are all in the request cache never
loads it; whether the weights are present is checked at once.
On a GPU the model runs in bfloat16, on a CPU in float32 (``dtype`` overrides).
A causal LM takes chat messages through its tokenizer's chat template, a template file the
system names, or (``chat_template: none``, base models) the prompt as plain text; ``stop``
strings end each answer (docs/base-models.md).
"""

from __future__ import annotations

import json
import logging
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from gendermt.core.errors import GenderMTError, MissingResourceError
from gendermt.translation.backends import gguf, model_folder, nmt_languages
from gendermt.translation.backends.base import Backend, Request

if TYPE_CHECKING:  # annotations only: the workflow imports backends to plan
    import pandas as pd

#: This module's backends, as gendermt.core.backends reads them from this file's text
#: (without importing it): name → its class and what is known before a job runs.
ABOUT = {
    "hf-seq2seq": {
        "class": "HFSeq2Seq",
        "style": "source",
        "cli_setting": "model",
        "files": {"model": "model"},
        "languages": True,
        "example": ("a multilingual NMT model (each request's target language)",
                    "gendermt run --model hf-seq2seq:facebook/nllb-200-distilled-600M "
                    "--benchmarks mt-geneval,fairtranslate"),
    },
    "hf-causal": {
        "class": "HFCausal",
        "style": "llm",
        "cli_setting": "model",
        "files": {"model": "model"},
        "example": ("a Hugging Face chat LLM (a base model without a chat template is run "
                    "few-shot)",
                    "gendermt run --model hf-causal:HuggingFaceTB/SmolLM2-360M-Instruct --option "
                    "max_new_tokens=64"),
    },
}

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


def cut_at_stop(text: str, stops: list[str]) -> str | None:
    """``text`` up to the first stop string after its leading whitespace (so that a newline
    before the answer does not end it), or None when it has none."""
    start = len(text) - len(text.lstrip())
    found = [i for i in (text.find(s, start) for s in stops) if i >= 0]
    return text[:min(found)] if found else None


def _stop_criteria(tok: Any, prompt_length: int, stops: list[str]) -> Any:
    """A stopping criterion ending each row once its new text holds a stop string after
    some text (transformers' own ``stop_strings`` would end a row on a leading newline)."""
    import torch
    from transformers import StoppingCriteria

    class AfterAnswer(StoppingCriteria):
        def __call__(self, input_ids: Any, scores: Any, **kwargs: Any) -> Any:
            texts = tok.batch_decode(input_ids[:, prompt_length:], skip_special_tokens=True)
            return torch.tensor([cut_at_stop(t, stops) is not None for t in texts],
                                dtype=torch.bool, device=input_ids.device)

    return AfterAnswer()


def generated_counts(new_tokens: Any, pad_id: int | None, reasons: list[str]) -> int:
    """Tokens the model generated in a batch: rows that ended early are padded (the pad
    token, or EOS where the tokenizer has none: its one EOS then counts)."""
    rows = new_tokens.tolist()
    if pad_id is None:
        return sum(map(len, rows))
    return sum(sum(t != pad_id for t in row) + (reason == "eos" and pad_id in row)
               for row, reason in zip(rows, reasons, strict=True))


def torch_cuda_count() -> int:
    import torch

    return torch.cuda.device_count()


class HFBackend(Backend):
    """What the two Hugging Face backends share: settings, device, dtype, loading."""

    default_gpus: ClassVar[int] = 1
    default_batch_size: ClassVar[int] = 16
    required_keys: ClassVar[frozenset[str]] = frozenset({"model"})

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

        started = time.perf_counter()
        if self.threads:
            torch.set_num_threads(self.threads)
        if self.gguf_path is not None:
            self.source = str(gguf.converted_folder(self.gguf_path, self.gguf_sha256))
        device, dtype = self._device_and_dtype()
        self._tokenizer = self._from_pretrained(AutoTokenizer, **self._tokenizer_kwargs())
        self._check_tokenizer(self._tokenizer)  # before the weights: a wrong model fails fast
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
        # Loading (and a first conversion) is the job's, not the generation's: throughput
        # reports it apart (translate.py).
        self.load_seconds = time.perf_counter() - started
        log.info("%s: loaded %s%s on %s (%s) in %.1f s", self.name, self.model_name,
                 f"@{self.revision}" if self.revision else "", device, dtype,
                 self.load_seconds)

    def _tokenizer_kwargs(self) -> dict[str, Any]:
        return {}

    def _check_tokenizer(self, tok: Any) -> None:
        """Raise GenderMTError when the tokenizer cannot serve this system (before the
        weights load)."""

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
    """Encoder-decoder NMT (NLLB, M2M100, MADLAD-400, mBART-50, Marian) on the plain source.

    A multilingual model translates each request into the request's own target language
    (and reads it as from its source language), so that one system serves every language of
    a study: the language is a forced first token (NLLB, M2M100, mBART-50) or a tag before
    the source (MADLAD-400's ``<2fr>``, OPUS-MT's ``>>fra<<``), by the family its tokenizer
    shows (:mod:`.nmt_languages`); ``lang_codes`` maps the data's codes to the model's.
    ``src_lang``/``tgt_lang``, in the model's own codes, fix the pair instead. A one-pair
    Marian model needs neither.
    """

    name: ClassVar[str] = "hf-seq2seq"
    prompted: ClassVar[bool] = False
    settings_keys: ClassVar[frozenset[str]] = frozenset(
        {"model", "revision", "src_lang", "tgt_lang", "num_beams", "max_new_tokens", "dtype",
         "lang_codes"})

    @classmethod
    def check_settings(cls, settings: dict[str, Any]) -> None:
        super().check_settings(settings)
        codes = settings.get("lang_codes", {})
        if not isinstance(codes, dict) or not all(
                isinstance(k, str) and isinstance(v, str) and v for k, v in codes.items()):
            raise GenderMTError(f"backend {cls.name!r}: lang_codes must map the data's "
                                f"language codes to the model's (e.g. {{fr: fra_Latn}}), not "
                                f"{codes!r}")

    def _model_class(self) -> Any:
        from transformers import AutoModelForSeq2SeqLM

        return AutoModelForSeq2SeqLM

    def _tokenizer_kwargs(self) -> dict[str, Any]:
        return {"src_lang": self.settings["src_lang"]} if "src_lang" in self.settings else {}

    def _check_tokenizer(self, tok: Any) -> None:
        """The model's language controls, from its tokenizer, and every target language of
        the data checked on them: an unknown one stops the job before the weights load
        (issue 51), naming the system, the language and the model's codes."""
        try:
            self._language_controls(tok)
        except GenderMTError as exc:
            system = getattr(self, "system_name", "")
            raise GenderMTError(f"system {system}: {exc}" if system else str(exc)) from None

    def _language_controls(self, tok: Any) -> None:
        tgt = self.settings.get("tgt_lang")
        self.forced_bos = None
        self.family = nmt_languages.family(tok)
        self.lang_codes = dict(self.settings.get("lang_codes", {}))
        self._targets: dict[tuple[str, str], tuple[Any, Any]] = {}
        if tgt is not None:
            # M2M100 wraps codes (en → __en__); NLLB and mBART use them as tokens.
            token_id = tok.get_lang_id(tgt) if hasattr(tok, "get_lang_id") \
                else tok.convert_tokens_to_ids(tgt)
            if token_id is None or token_id == tok.unk_token_id:
                raise GenderMTError(f"hf-seq2seq: {self.model_name} has no language code "
                                    f"{tgt!r} (tgt_lang); use the model family's codes, e.g. "
                                    f"NLLB fra_Latn, M2M100 fr, mBART fr_XX")
            self.forced_bos = token_id
        elif self.family is not None and self.data is not None \
                and "tgt_lang" in getattr(self.data, "columns", ()):
            # Every language of the data is checked now: an unknown one fails the job before
            # anything is generated, naming it.
            src = self.data["src_lang"] if "src_lang" in self.data.columns else None
            for n, lang in enumerate(self.data["tgt_lang"].astype(str)):
                self._languages(src.iloc[n] if src is not None else "", lang)

    def load(self) -> None:
        super().load()  # the language controls: _check_tokenizer, before the weights
        tgt = self.settings.get("tgt_lang")
        log.info("hf-seq2seq: %s: %s", self.model_name,
                 f"target fixed ({tgt})" if tgt is not None else
                 f"the target language of each request ({self.family})" if self.family
                 else "one language pair")

    def _languages(self, src_lang: str, tgt_lang: str) -> tuple[Any, Any]:
        """The source and target controls of a request's languages (None: none needed)."""
        key = (src_lang, tgt_lang)
        if key not in self._targets:
            if self.settings.get("tgt_lang") is not None or self.family is None or not tgt_lang:
                self._targets[key] = (None, None)
            else:
                tgt = nmt_languages.target(self._tokenizer, self.family, tgt_lang,
                                           self.lang_codes, self.model_name)
                src = None
                if src_lang and "src_lang" not in self.settings \
                        and self.family in ("nllb", "mbart50", "m2m100"):
                    src = nmt_languages.target(self._tokenizer, self.family, src_lang,
                                               self.lang_codes, self.model_name, "source")
                self._targets[key] = (src, tgt)
        return self._targets[key]

    def translate(self, batch: list[Request]) -> list[str]:
        self.tokenizer  # noqa: B018 (loads the model, which says the family)
        if self.forced_bos is not None or self.family is None:
            groups = {(None, None): list(range(len(batch)))}
        else:
            groups = {}
            for i, r in enumerate(batch):
                groups.setdefault(self._languages(r.src_lang, r.tgt_lang), []).append(i)
        outputs: list[str] = [""] * len(batch)
        reasons: list[str] = ["length"] * len(batch)
        generated = 0
        for (src, tgt), positions in groups.items():
            texts, why, n = self._generate([batch[i] for i in positions], src, tgt)
            generated += n
            for i, text, reason in zip(positions, texts, why, strict=True):
                outputs[i], reasons[i] = text, reason
        self.finish_reasons, self.generated_tokens = reasons, generated
        return outputs

    def _generate(self, batch: list[Request], src: Any, tgt: Any
                  ) -> tuple[list[str], list[str], int]:
        """One generate call for requests of the same languages."""
        import torch

        tok, model = self.tokenizer, self.model
        if src is not None:
            tok.src_lang = src.code  # the source language token the encoder is given
        prefix = tgt.prefix if tgt is not None else ""
        enc = tok([prefix + r.source for r in batch], return_tensors="pt", padding=True,
                  truncation=True).to(self.device)
        kwargs: dict[str, Any] = {"max_new_tokens": self.max_new_tokens, "do_sample": False,
                                  "num_beams": int(self.settings.get("num_beams", 1))}
        forced = self.forced_bos if tgt is None else tgt.bos
        if forced is not None:
            kwargs["forced_bos_token_id"] = forced
        with torch.inference_mode():
            out = model.generate(**enc, **kwargs)
        stops = [tok.eos_token_id] if tok.eos_token_id is not None else []
        # the decoder's start token (and a forced language code) lead each row
        lead = 2 if forced is not None else 1
        reasons = finish_reasons(out[:, lead:], stops)
        texts = [t.strip() for t in tok.batch_decode(out, skip_special_tokens=True)]
        return texts, reasons, generated_counts(out[:, lead:], tok.pad_token_id,
                                                      reasons)


class HFCausal(HFBackend):
    """A causal LM on the request's ``messages``: a chat LLM through its tokenizer's chat
    template (or the Jinja file ``chat_template`` names), a base LLM on plain text
    (``chat_template: none``: the messages' texts as they are, for completion-style
    prompts). Left padding, batched generation; each answer ends at an end of turn, EOS or
    one of the ``stop`` strings after some text (finish reason ``stop``; the output is cut
    before it)."""

    name: ClassVar[str] = "hf-causal"
    reads_data: ClassVar[bool] = False
    reads_gguf: ClassVar[bool] = True
    settings_keys: ClassVar[frozenset[str]] = frozenset(
        {"model", "revision", "max_new_tokens", "temperature", "top_p", "dtype", "seed",
         "chat_template", "stop"})
    #: ``chat_template`` for a model that takes plain text (a base model).
    PLAIN = "none"

    @classmethod
    def has_chat_template(cls, settings: dict[str, Any]) -> bool:
        """A GGUF file's header, or a local folder's tokenizer files, say whether the model has
        a chat template; a Hub id is taken for a chat model."""
        model = str(settings.get("model") or "")
        if model.endswith(".gguf"):
            return bool(gguf.metadata(gguf.locate(model), {"tokenizer.chat_template"}))
        folder = Path(model).expanduser()
        if (folder / "tokenizer_config.json").is_file():
            config = json.loads((folder / "tokenizer_config.json").read_text(encoding="utf-8"))
            return bool(config.get("chat_template") or (folder / "chat_template.jinja").is_file())
        return True

    @classmethod
    def check_settings(cls, settings: dict[str, Any]) -> None:
        super().check_settings(settings)
        template = settings.get("chat_template")
        if template is not None and (not isinstance(template, str) or not template):
            raise GenderMTError(f"backend {cls.name!r}: chat_template must be {cls.PLAIN!r} "
                                f"(plain text, a base model) or a Jinja file's path, not "
                                f"{template!r}")
        if template not in (None, cls.PLAIN) and not Path(template).expanduser().is_file():
            raise GenderMTError(f"backend {cls.name!r}: chat_template {template!r} is no file "
                                f"(name a Jinja chat template, or {cls.PLAIN!r} for plain "
                                f"text)")
        stops = settings.get("stop", [])
        if not isinstance(stops, list) or not all(isinstance(x, str) and x for x in stops):
            raise GenderMTError(f"backend {cls.name!r}: stop must be a list of non-empty "
                                f"strings (e.g. [\"\\n\"]: one line per answer), not {stops!r}")

    def __init__(self, settings: dict[str, Any], data: Any) -> None:
        super().__init__(settings, data)
        template = settings.get("chat_template")
        self.plain = template == self.PLAIN
        self.template_text = (Path(template).expanduser().read_text(encoding="utf-8")
                              if template not in (None, self.PLAIN) else None)
        self.stops = list(settings.get("stop", []))
        if self.gguf_path is not None:
            # What would fail after the minute-long conversion is read from the header now.
            gguf.check_loadable(self.gguf_path)
            if template is None and "tokenizer.chat_template" not in gguf.metadata(
                    self.gguf_path, {"tokenizer.chat_template"}):
                raise self._no_template_error()

    def identity(self) -> dict[str, Any]:
        found = super().identity()
        if self.template_text is not None:  # the file's text, not only its path
            import hashlib

            found["chat_template_sha256"] = hashlib.sha256(
                self.template_text.encode()).hexdigest()
        return found

    def _no_template_error(self) -> GenderMTError:
        return GenderMTError(
            f"hf-causal: {self.model_name} has no chat template: a base model takes plain "
            f"text (set the system's `chat_template: none`, with a completion-style prompt "
            f"and `stop: [\"\\n\"]`; docs/base-models.md), or name a Jinja chat template "
            f"file in `chat_template`")

    def _check_tokenizer(self, tok: Any) -> None:
        if not self.plain and self.template_text is None \
                and not getattr(tok, "chat_template", None):
            raise self._no_template_error()

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
        stops = {tok.eos_token_id}
        gen_eos = self._model.generation_config.eos_token_id
        stops.update(gen_eos if isinstance(gen_eos, list) else [gen_eos])
        vocab = tok.get_vocab()
        stops.update(vocab[t] for t in END_OF_TURN if t in vocab)
        self.stop_ids = sorted(i for i in stops if i is not None)

    def render(self, request: Request) -> str:
        messages = request.messages or [{"role": "user", "content": request.source}]
        if self.plain:
            # A base model continues the text: the prompt's texts as written (a system
            # message, if the template has one, first), nothing around them.
            return "\n\n".join(m["content"] for m in messages)
        template = {"chat_template": self.template_text} if self.template_text else {}
        try:
            return self.tokenizer.apply_chat_template(messages, tokenize=False,
                                                      add_generation_prompt=True, **template)
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
                                                      add_generation_prompt=True, **template)

    def translate(self, batch: list[Request]) -> list[str]:
        import torch

        tok, model = self.tokenizer, self.model
        texts = [self.render(r) for r in batch]
        # A chat template already holds the BOS token where the model wants one; plain text
        # gets the tokenizer's own (Gemma's <bos>).
        enc = tok(texts, return_tensors="pt", padding=True,
                  add_special_tokens=self.plain).to(self.device)
        temperature = float(self.settings.get("temperature", 0))
        kwargs: dict[str, Any] = {"max_new_tokens": self.max_new_tokens,
                                  "eos_token_id": self.stop_ids,
                                  "pad_token_id": tok.pad_token_id}
        prompt_length = enc["input_ids"].shape[1]
        if self.stops:
            kwargs["stopping_criteria"] = [_stop_criteria(tok, prompt_length, self.stops)]
        if temperature > 0:
            torch.manual_seed(int(self.settings.get("seed", 0)))
            kwargs.update(do_sample=True, temperature=temperature,
                          top_p=float(self.settings.get("top_p", 1.0)))
        else:
            kwargs.update(do_sample=False, temperature=None, top_p=None, top_k=None)
        with torch.inference_mode():
            out = model.generate(**enc, **kwargs)
        new = out[:, prompt_length:]
        reasons = finish_reasons(new, self.stop_ids)
        outputs = []
        for i, text in enumerate(tok.batch_decode(new, skip_special_tokens=True)):
            cut = cut_at_stop(text, self.stops) if self.stops else None
            if cut is not None:
                text, reasons[i] = cut, "stop"
            outputs.append(text.strip())
        self.finish_reasons = reasons
        self.generated_tokens = generated_counts(new, tok.pad_token_id, reasons)
        return outputs
