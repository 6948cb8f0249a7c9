"""What a translation job asks a cluster for (gendermt.workflow.job_size): little for jobs
that read files, the model's size for model backends. The SLURM profile's dry run with these
is in tests/workflow/test_slurm_sizes.py."""

from __future__ import annotations

import json
import math
import struct
import types

import numpy as np
import pytest

from gendermt.core import backends
from gendermt.translation.backends import gguf
from gendermt.workflow import job_size
from gendermt.workflow.job_size import (
    FILES,
    SERVICE,
    UNKNOWN_MODEL_MB,
    config_parameters,
    model_memory_mb,
    parameter_count,
    sized_resources,
    translation_size,
)

FILE_READERS = {"reference-oracle", "copy-source", "stored", "apertium", "rule-rewriter"}
SERVICES = {"openai-compatible", "deepl", "google-translate", "microsoft-translator",
            "amazon-translate"}
MODELS = {"hf-causal", "hf-seq2seq", "vllm"}


def expected_mb(params: int, bytes_per_param: int) -> int:
    """The documented formula, written out: 3000 MB + params x bytes x 1.5, up to a GB."""
    return math.ceil((3000 + params * bytes_per_param * 1.5 / 1e6) / 1000) * 1000


def header_only_safetensors(path, tensors: dict[str, tuple[str, list[int]]]) -> None:
    """A safetensors file's header (no data): all that sizing reads."""
    header, offset = {}, 0
    for name, (dtype, shape) in tensors.items():
        size = math.prod(shape) * {"BF16": 2, "F32": 4}[dtype]
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + size]}
        offset += size
    blob = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(blob)) + blob)


def test_every_backend_says_what_its_jobs_spend():
    workloads = {name: about.workload for name, about in backends.declared().items()}
    assert {n for n, w in workloads.items() if w == "files"} == FILE_READERS
    assert {n for n, w in workloads.items() if w == "service"} == SERVICES
    assert {n for n, w in workloads.items() if w == "model"} == MODELS


@pytest.mark.parametrize("backend", sorted(FILE_READERS))
def test_jobs_that_read_files_ask_for_little(backend):
    # a `gpus:` a user set does not make a file reader big
    assert translation_size({"backend": backend}, 0) == FILES
    assert FILES.mem_mb <= 1000 and FILES.runtime <= 15 and FILES.cpus == 1


def test_a_prompts_job_that_reads_the_shared_sources_file_asks_for_little(tmp_path):
    settings = {"backend": "hf-seq2seq", "model": str(tmp_path)}
    assert translation_size(settings, 0, reads_shared=True) == FILES


def test_services_ask_for_little_memory_and_long_runtime():
    size = translation_size({"backend": "openai-compatible", "base_url": "http://x"}, 1)
    assert size == SERVICE and SERVICE.mem_mb <= 2000 and SERVICE.runtime >= 120


def test_a_models_memory_comes_from_its_safetensors_headers(tmp_path):
    # a 7B model's header: 7e9 parameters in bfloat16 over two shards
    header_only_safetensors(tmp_path / "model-00001-of-00002.safetensors",
                            {"a": ("BF16", [50_000, 100_000])})
    header_only_safetensors(tmp_path / "model-00002-of-00002.safetensors",
                            {"b": ("BF16", [2_000_000_000]), "c": ("F32", [1000, 1000])})
    params = 5_000_000_000 + 2_000_000_000 + 1_000_000
    assert parameter_count(tmp_path) == params
    settings = {"backend": "hf-causal", "model": str(tmp_path)}
    # on a GPU bfloat16 (2 bytes), on a CPU float32 (4): the hf backends' own choice
    assert model_memory_mb(settings, 1) == expected_mb(params, 2) == 25000
    assert model_memory_mb(settings, 0) == expected_mb(params, 4) == 46000
    assert model_memory_mb({**settings, "dtype": "float32"}, 2) == 46000
    size = translation_size(settings, 1)
    assert (size.mem_mb, size.runtime, size.cpus) == (25000, 240, 2)


def test_pytorch_bin_weights_count_by_their_stored_dtype(tmp_path):
    (tmp_path / "pytorch_model.bin").write_bytes(b"\0" * 2_000_000)
    (tmp_path / "config.json").write_text(json.dumps({"torch_dtype": "float16"}))
    assert parameter_count(tmp_path) == 1_000_000
    (tmp_path / "config.json").write_text("{}")  # no dtype: float32
    assert parameter_count(tmp_path) == 500_000


@pytest.mark.parametrize("kind", ["llama", "marian"])
def test_without_weights_the_configs_dimensions_give_the_parameters_within_10_percent(
        tmp_path, kind):
    import torch
    from transformers import AutoModelForCausalLM, AutoModelForSeq2SeqLM, LlamaConfig, MarianConfig

    if kind == "llama":
        config = LlamaConfig(vocab_size=32000, hidden_size=512, intermediate_size=1376,
                             num_hidden_layers=6, num_attention_heads=8)
        loader = AutoModelForCausalLM
    else:
        config = MarianConfig(vocab_size=32000, d_model=512, encoder_layers=6,
                              decoder_layers=6, encoder_ffn_dim=2048, decoder_ffn_dim=2048,
                              pad_token_id=0, decoder_start_token_id=0)
        loader = AutoModelForSeq2SeqLM
    with torch.device("meta"):
        model = loader.from_config(config)
    # tied embeddings count once, as in the weights file
    real = sum(p.numel() for p in {id(p): p for p in model.parameters()}.values())
    config.save_pretrained(tmp_path)
    estimate = parameter_count(tmp_path)
    assert estimate == config_parameters(json.loads((tmp_path / "config.json").read_text()))
    assert abs(estimate - real) / real < 0.10, (estimate, real)


def test_a_gguf_files_parameters_come_from_its_tensor_table(tmp_path):
    gguf_lib = pytest.importorskip("gguf")
    path = tmp_path / "tiny.gguf"
    writer = gguf_lib.GGUFWriter(str(path), "llama")
    writer.add_token_list(["<s>", "</s>", "a", "b"])  # a string array to skip
    writer.add_context_length(64)
    writer.add_tensor("token_embd.weight", np.zeros((4, 8), dtype=np.float32))
    writer.add_tensor("blk.0.ffn_up.weight", np.zeros((3, 8, 2), dtype=np.float16))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    assert gguf.parameter_count(path) == 32 + 48
    # 8 bytes a parameter: the one-time conversion holds two float32 copies
    settings = {"backend": "hf-causal", "model": str(path)}
    assert model_memory_mb(settings, 1) == expected_mb(80, 8) == 4000


def test_a_model_not_found_here_gets_the_former_fixed_request(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty-cache"))
    monkeypatch.setattr(job_size, "model_folder", lambda model, revision=None: None)
    assert model_memory_mb({"backend": "hf-causal", "model": "org/not-here"}, 1) == \
        UNKNOWN_MODEL_MB
    assert model_memory_mb({"backend": "hf-causal", "model": "absent.gguf"}, 1) == \
        UNKNOWN_MODEL_MB
    assert model_memory_mb({"backend": "vllm"}, 1) == UNKNOWN_MODEL_MB


def test_a_hub_id_in_the_local_cache_is_sized_from_its_snapshot(tmp_path, monkeypatch):
    snapshot = tmp_path / "hub" / "models--org--m" / "snapshots" / ("a" * 40)
    snapshot.mkdir(parents=True)
    (tmp_path / "hub" / "models--org--m" / "refs").mkdir()
    (tmp_path / "hub" / "models--org--m" / "refs" / "main").write_text("a" * 40)
    (snapshot / "config.json").write_text("{}")
    header_only_safetensors(snapshot / "model.safetensors", {"w": ("BF16", [1_000_000_000])})
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    import huggingface_hub.constants as constants

    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path / "hub"))
    assert job_size.model_folder("org/m") == snapshot
    assert model_memory_mb({"backend": "hf-seq2seq", "model": "org/m"}, 1) == \
        expected_mb(1_000_000_000, 2) == 6000


def test_memory_and_runtime_grow_with_the_attempt():
    sized = sized_resources(lambda wildcards: FILES if wildcards.system == "o" else SERVICE)
    job = types.SimpleNamespace(system="o")
    assert [sized["mem_mb"](job, a) for a in (1, 2, 3)] == [1000, 2000, 3000]
    assert [sized["runtime"](job, a) for a in (1, 2)] == [10, 20]
    assert sized["cpus_per_task"](job) == 1
    assert sized["mem_mb"](types.SimpleNamespace(system="api"), 2) == 4000
