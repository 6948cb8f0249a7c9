"""What a translation job asks a cluster for: memory, time and CPUs, from its system's config.

A job's size follows its backend's ``workload`` (its module's ABOUT, gendermt.core.backends):

* ``files`` (the oracles, copy-source, stored outputs, Apertium, the rule rewriter) and a
  prompt's job that takes its outputs from the system's translation of the distinct sources:
  they read files, so they ask for little (``FILES``) and start as soon as a slot is free;
* ``service`` (OpenAI-compatible servers, the commercial MT services): little memory, but the
  time of many remote requests (``SERVICE``);
* ``model`` (hf-causal, hf-seq2seq, vllm): memory estimated from the model's size,
  ``mem_mb = OVERHEAD_MB + parameters x bytes per parameter x ACTIVATION_FACTOR`` (rounded up
  to a GB): the bytes are those of the dtype the job computes in (the system's ``dtype``; for
  ``auto``, bfloat16 on a GPU and float32 on a CPU, as the hf backends choose); a GGUF file
  counts 8 bytes a parameter, since its one-time conversion holds two float32 copies. The
  parameters come from the weights (a GGUF file's tensor table, a folder's safetensors
  headers, else its weight files' size over the stored dtype) or, when only ``config.json``
  is there, from the config's dimensions. A model not found locally (to be downloaded by the
  job) gets ``UNKNOWN_MODEL_MB``.

Memory and runtime grow with the attempt, so that a job killed for either gets more on its
retry. These are resources, never params: changing them, or the model's files moving,
reruns nothing.
"""

from __future__ import annotations

import json
import math
import struct
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gendermt.core import backends
from gendermt.translation.backends import gguf
from gendermt.workflow import startup_cache

#: Python, torch and the CUDA libraries of a model job before any weight (MB).
OVERHEAD_MB = 3000
#: Activations, the KV cache, the tokenizer and transient copies while loading, over the weights.
ACTIVATION_FACTOR = 1.5
#: A model whose size cannot be read before the job (a Hub id not in the local cache): the
#: former fixed request of every translation job.
UNKNOWN_MODEL_MB = 16000
#: The activations of decoder-only families whose feed-forward is gated (three matrices).
GATED_ACTIVATIONS = frozenset({"silu", "swish", "gelu_pytorch_tanh"})
#: Bytes a parameter, by dtype name (config.json's ``torch_dtype``, safetensors' ``dtype``).
DTYPE_BYTES = {"float32": 4, "float": 4, "F32": 4, "float16": 2, "half": 2, "F16": 2,
               "bfloat16": 2, "BF16": 2, "float64": 8, "F64": 8, "int8": 1, "I8": 1,
               "uint8": 1, "U8": 1, "F8_E4M3": 1, "F8_E5M2": 1, "int32": 4, "I32": 4,
               "int64": 8, "I64": 8, "bool": 1, "BOOL": 1}


@dataclass(frozen=True)
class JobSize:
    """A job's first-attempt request: memory (MB), runtime (minutes), CPUs."""

    mem_mb: int
    runtime: int
    cpus: int


FILES = JobSize(mem_mb=1000, runtime=10, cpus=1)
SERVICE = JobSize(mem_mb=2000, runtime=240, cpus=1)
MODEL_RUNTIME = 240
MODEL_CPUS = 2


def translation_size(settings: dict[str, Any], gpus: int, *, reads_shared: bool = False
                     ) -> JobSize:
    """The request of a translation job of a system with these settings on `gpus` GPUs;
    `reads_shared`: the job takes its outputs from the system's translation of the distinct
    sources (it only reads that file)."""
    about = backends.info(str(settings.get("backend", "")))
    workload = about.workload if about else "model"  # what its module declares
    if reads_shared or workload == "files":
        return FILES
    if workload == "service":
        return SERVICE
    return JobSize(mem_mb=model_memory_mb(settings, gpus), runtime=MODEL_RUNTIME,
                   cpus=MODEL_CPUS)


def model_memory_mb(settings: dict[str, Any], gpus: int) -> int:
    """``OVERHEAD_MB + parameters x bytes x ACTIVATION_FACTOR``, rounded up to 1000 MB
    (UNKNOWN_MODEL_MB when the model's size cannot be read here)."""
    model = str(settings.get("model", ""))
    if not model:
        return UNKNOWN_MODEL_MB
    if gguf.is_gguf(model):
        try:
            params = _memoised(gguf.locate(model), gguf.parameter_count)
        except Exception:  # not there yet: the job says what is missing
            return UNKNOWN_MODEL_MB
        per_param = 8  # the conversion's two float32 copies
    else:
        folder = model_folder(model, settings.get("revision"))
        params = None if folder is None else parameter_count(folder)
        if params is None:
            return UNKNOWN_MODEL_MB
        per_param = compute_bytes(settings.get("dtype", "auto"), gpus)
    mb = OVERHEAD_MB + params * per_param * ACTIVATION_FACTOR / 1e6
    return int(math.ceil(mb / 1000) * 1000)


def compute_bytes(dtype: str, gpus: int) -> int:
    """Bytes a parameter in the dtype a job computes in (``auto``: bfloat16 on a GPU, float32
    on a CPU, as gendermt.translation.backends.hf chooses)."""
    if dtype == "auto":
        return 2 if gpus > 0 else 4
    return DTYPE_BYTES[dtype]


def model_folder(model: str, revision: str | None = None) -> Path | None:
    """A local folder as is; a Hub id's snapshot in the local Hugging Face cache; else None."""
    path = Path(model).expanduser()
    if path.is_dir():
        return path
    try:
        from huggingface_hub import try_to_load_from_cache
    except ImportError:
        return None
    try:
        found = try_to_load_from_cache(model, "config.json", revision=revision)
    except Exception:  # an id the Hub's rules refuse: the job's own check says why
        return None
    return Path(found).parent if isinstance(found, str) else None


def parameter_count(folder: Path) -> int | None:
    """A model folder's parameters: its safetensors headers' tensors, else its weight files'
    bytes over the stored dtype (config.json's, float32 if none), else an estimate from the
    config's dimensions; None when the folder says nothing."""
    config = _config(folder)
    tensors = sorted(folder.glob("*.safetensors"))
    if tensors:
        return sum(_memoised(p, safetensors_parameters) for p in tensors)
    weights = [p for pattern in ("*.bin", "*.pt") for p in folder.glob(pattern)]
    if weights:
        stored = str(config.get("torch_dtype") or config.get("dtype") or "float32")
        return sum(p.stat().st_size for p in weights) // DTYPE_BYTES.get(stored, 4)
    return config_parameters(config)


def safetensors_parameters(path: Path) -> int:
    """The elements of every tensor a safetensors file holds, from its JSON header only."""
    with path.open("rb") as fh:
        (length,) = struct.unpack("<Q", fh.read(8))
        header = json.loads(fh.read(length))
    return sum(math.prod(t["shape"]) for name, t in header.items() if name != "__metadata__")


def config_parameters(config: dict[str, Any]) -> int | None:
    """A transformer's parameters from its config's dimensions: embeddings (vocab x hidden,
    twice when the output projection is not tied to them) plus, per layer, attention
    (4 hidden^2) and the feed-forward (2, or gated 3, x hidden x ffn); a decoder layer of an
    encoder-decoder has cross-attention too (4 hidden^2 more). An estimate (biases and norms
    left out), for a folder without weights; None when dimensions lack."""
    hidden = _first(config, "hidden_size", "d_model", "n_embd")
    vocab = _first(config, "vocab_size")
    if not hidden or not vocab:
        return None
    ffn = _first(config, "intermediate_size", "d_ff", "ffn_dim", "encoder_ffn_dim",
                 "n_inner") or 4 * hidden
    encoder = _first(config, "encoder_layers", "num_encoder_layers") or 0
    decoder = _first(config, "decoder_layers", "num_decoder_layers") or 0
    layers = _first(config, "num_hidden_layers", "n_layer", "num_layers") or 0
    # an output projection of its own unless tied to the embeddings (transformers' default)
    embeddings = vocab * hidden * (1 if config.get("tie_word_embeddings", True) else 2)
    # a gated feed-forward (Llama, Gemma, Mistral, Qwen; T5 v1.1) has three matrices, else two
    gated = (config.get("hidden_act") in GATED_ACTIVATIONS
             or config.get("hidden_activation") in GATED_ACTIVATIONS
             or "gated" in str(config.get("feed_forward_proj", "")))
    per_layer = 4 * hidden * hidden + (3 if gated else 2) * hidden * ffn
    if encoder or decoder:
        return embeddings + encoder * per_layer + decoder * (per_layer + 4 * hidden * hidden)
    return embeddings + layers * per_layer


def _memoised(path: Path, count: Callable[[Path], int]) -> int:
    """``count(path)``, kept in the start-up cache under the file's path, size and mtime (a
    GGUF tensor table takes 0.1-0.2 s to walk, on every Snakemake call otherwise)."""
    stat = path.stat()
    key = startup_cache.content_key(f"parameters:{path.resolve()}",
                                    f"{stat.st_size}:{stat.st_mtime_ns}".encode())
    found = startup_cache.get(key)
    if found is None:
        found = count(path)
        startup_cache.put(key, found)
    return int(found)


def _first(config: dict[str, Any], *keys: str) -> int | None:
    for key in keys:
        if isinstance(config.get(key), int):
            return int(config[key])
    return None


def _config(folder: Path) -> dict[str, Any]:
    try:
        return json.loads((folder / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def sized_resources(size_of: Callable[[Any], JobSize]) -> dict[str, Any]:
    """``mem_mb``, ``runtime`` and ``cpus_per_task`` of a rule whose jobs' sizes `size_of`
    gives (a function of the wildcards): functions of the wildcards and the attempt, for
    ``resources: **sized_resources(...)``."""
    def mem_mb(wildcards: Any, attempt: int) -> int:
        return size_of(wildcards).mem_mb * attempt

    def runtime(wildcards: Any, attempt: int) -> int:
        return size_of(wildcards).runtime * attempt

    def cpus_per_task(wildcards: Any) -> int:
        return size_of(wildcards).cpus

    return {"mem_mb": mem_mb, "runtime": runtime, "cpus_per_task": cpus_per_task}
