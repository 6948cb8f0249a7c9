"""The GPU path of the Hugging Face backends, checked where a GPU is at hand (issue 53, item 7).

Usage: python perf/gpu_check.py [--items 32] [--max-new-tokens 16] [--small]

Copy this file with the package (src/gendermt) to a machine with torch, transformers and
tokenizers; nothing is downloaded: `hf-causal` (a Llama) and `hf-seq2seq` (a Marian model)
are built from config with random weights and a tokenizer trained on the fly, in a temporary
folder. Then, through the real backends (``build_backend``):

CPU half: each backend in float32 on the CPU at batch 1 and 16 (the reference outputs), its
  dtype choice for ``auto`` there (float32), and throughput.
GPU half (CUDA): the `gpu` resource a job of these backends asks for (1) and that the model
  then lives on the GPU; the dtype choice for ``auto`` on the GPU (bfloat16 where the GPU
  supports it, else float32: gendermt.translation.backends.hf); greedy outputs in float32 on
  the GPU equal the CPU's, item for item, at batch 1 and 16; the process's peak host memory
  within the job's request (gendermt.workflow.job_size); throughput at batch 1 and 16 in
  float32 and in the ``auto`` dtype (whose agreement with float32 is printed, not checked).

Exit status: 0 every check held; 1 a check failed (each is printed with FAIL); 3 no CUDA
device here: the CPU half ran and held, the GPU half did not run. CI never runs this.
The random models are larger than the tests' (hidden size 256, 4 layers, weights drawn with
a wide spread) so that greedy choices are not near-ties that float rounding could flip.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
os.environ["HF_HUB_OFFLINE"] = "1"

NO_CUDA = 3
BATCHES = (1, 16)
WORDS = ["the", "nurse", "doctor", "engineer", "said", "she", "he", "they", "will", "come",
         "tomorrow", "infirmière", "médecin", "ingénieur", "a", "dit", "qu'elle", "viendra",
         "demain", "translate", "into", "French", "sentence", "following", "teacher", "asked"]
SPECIALS = ["<pad>", "<s>", "</s>", "<unk>", "<|end|>", "<|user|>", "<|assistant|>"]
CHAT_TEMPLATE = ("{{ bos_token }}{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}"
                 "<|end|>{% endfor %}{% if add_generation_prompt %}<|assistant|>{% endif %}")

failures: list[str] = []


def check(ok: bool, what: str) -> None:
    print(f"  {'ok  ' if ok else 'FAIL'} {what}")
    if not ok:
        failures.append(what)


# --- tiny random models from config (as tests/tiny_models.py, self-contained) --------------
def sentences(n: int) -> list[str]:
    return [" ".join(WORDS[(i * 7 + j) % len(WORDS)] for j in range(4 + i % 9))
            for i in range(n)]


def tokenizer() -> Any:
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE(unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(sentences(300), trainers.BpeTrainer(
        vocab_size=400, special_tokens=SPECIALS,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="<pad>", bos_token="<s>",
                                   eos_token="</s>", unk_token="<unk>",
                                   model_input_names=["input_ids", "attention_mask"])


def build_models(folder: Path) -> dict[str, Path]:
    import torch
    from transformers import (
        GenerationConfig,
        LlamaConfig,
        LlamaForCausalLM,
        MarianConfig,
        MarianMTModel,
    )

    torch.manual_seed(0)
    tok = tokenizer()
    ids = {"pad_token_id": tok.pad_token_id, "eos_token_id": tok.eos_token_id}
    marian = MarianMTModel(MarianConfig(
        vocab_size=len(tok), d_model=256, encoder_layers=4, decoder_layers=4,
        encoder_attention_heads=4, decoder_attention_heads=4, encoder_ffn_dim=512,
        decoder_ffn_dim=512, max_position_embeddings=256, init_std=0.05,
        decoder_start_token_id=tok.pad_token_id, **ids))
    marian.generation_config = GenerationConfig(decoder_start_token_id=tok.pad_token_id, **ids)
    causal_tok = tokenizer()
    causal_tok.chat_template = CHAT_TEMPLATE
    llama = LlamaForCausalLM(LlamaConfig(
        vocab_size=len(causal_tok), hidden_size=256, intermediate_size=512,
        num_hidden_layers=4, num_attention_heads=4, num_key_value_heads=4,
        max_position_embeddings=512, initializer_range=0.2,
        bos_token_id=causal_tok.bos_token_id, **ids))
    llama.generation_config = GenerationConfig(bos_token_id=causal_tok.bos_token_id, **ids)
    found = {}
    for name, model, tk in (("hf-seq2seq", marian, tok), ("hf-causal", llama, causal_tok)):
        model.save_pretrained(folder / name)
        tk.save_pretrained(folder / name)
        found[name] = folder / name
    return found


# --- running a backend --------------------------------------------------------------------
@contextlib.contextmanager
def cpu_only():
    """The backends as on a machine without CUDA (they ask torch whether it has one)."""
    import torch

    saved = torch.cuda.is_available, torch.cuda.device_count
    torch.cuda.is_available, torch.cuda.device_count = (lambda: False), (lambda: 0)
    try:
        yield
    finally:
        torch.cuda.is_available, torch.cuda.device_count = saved


def requests(n: int) -> list[Any]:
    from gendermt.translation.backends import Request

    return [Request(f"i{i}", s, [{"role": "user", "content": f"Translate into French: {s}"}],
                    "en", "fr") for i, s in enumerate(sentences(n))]


def run(settings: dict[str, Any], reqs: list[Any], batch: int) -> dict[str, Any]:
    """Outputs, throughput and what the backend chose, at one batch size (load not timed)."""
    from gendermt.translation.backends import build_backend

    backend = build_backend(settings, None)
    backend.load()
    outputs, tokens = [], 0
    started = time.perf_counter()
    for i in range(0, len(reqs), batch):
        outputs += backend.translate(reqs[i:i + batch])
        tokens += backend.generated_tokens or 0
    seconds = time.perf_counter() - started
    params = next(backend.model.parameters())
    return {"outputs": outputs, "seconds": seconds, "tokens": tokens,
            "provenance": backend.provenance(), "param_device": params.device.type,
            "param_dtype": str(params.dtype).replace("torch.", "")}


def report(label: str, result: dict[str, Any], items: int) -> None:
    s = result["seconds"]
    print(f"  {label}: {items / s:8.1f} items/s {result['tokens'] / s:9.1f} tokens/s "
          f"({s:.2f} s; {result['provenance'].get('device')}, "
          f"{result['provenance'].get('dtype')})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=32)
    parser.add_argument("--max-new-tokens", type=int, default=16)
    parser.add_argument("--small", action="store_true", help="16 items, 6 new tokens")
    args = parser.parse_args(argv)
    if args.small:
        args.items, args.max_new_tokens = 16, 6

    import torch

    from gendermt.translation.backends import system_gpus
    from gendermt.workflow.job_size import translation_size
    from gendermt.workflow.placement import gpu_resources

    print(f"torch {torch.__version__}; CUDA available: {torch.cuda.is_available()}")
    reqs = requests(args.items)
    with tempfile.TemporaryDirectory() as tmp:
        folders = build_models(Path(tmp))
        base = {name: {"backend": name, "model": str(folder), "temperature": 0,
                       "max_new_tokens": args.max_new_tokens}
                for name, folder in folders.items()}
        for settings in base.values():
            if settings["backend"] == "hf-seq2seq":
                del settings["temperature"]  # an NMT system has no sampling settings

        print("CPU half (float32, the reference)")
        cpu: dict[tuple[str, int], dict[str, Any]] = {}
        with cpu_only():
            for name, settings in base.items():
                auto = run(settings, reqs[:2], 2)["provenance"]
                check(auto.get("device") == "cpu" and auto.get("dtype") == "float32",
                      f"{name}: dtype auto on the CPU is float32 ({auto.get('dtype')})")
                for batch in BATCHES:
                    cpu[name, batch] = run({**settings, "dtype": "float32"}, reqs, batch)
                    report(f"{name} batch {batch:2d}", cpu[name, batch], len(reqs))
                    check(all(cpu[name, batch]["outputs"]), f"{name} batch {batch}: "
                          f"every item has an output")

        if not torch.cuda.is_available():
            print("no CUDA device here: the GPU half did not run "
                  f"(exit {NO_CUDA}; the CPU half {'held' if not failures else 'FAILED'})")
            return 1 if failures else NO_CUDA

        print(f"GPU half: {torch.cuda.get_device_name(0)}, "
              f"{torch.cuda.device_count()} visible; TF32 matmul "
              f"{torch.backends.cuda.matmul.allow_tf32}")
        bf16 = torch.cuda.is_bf16_supported()
        for name, settings in base.items():
            gpus = system_gpus(settings)
            placed = gpu_resources(gpus)
            check(gpus == 1 and placed["gpu"] == 1,
                  f"{name}: a job asks for the `gpu` resource 1 (asks {placed['gpu']})")
            auto = run(settings, reqs, BATCHES[-1])
            expected = "bfloat16" if bf16 else "float32"
            check(auto["provenance"].get("device", "").startswith("cuda")
                  and auto["param_device"] == "cuda",
                  f"{name}: the model runs on the GPU ({auto['provenance'].get('device')}, "
                  f"weights on {auto['param_device']})")
            check(auto["provenance"].get("dtype") == expected == auto["param_dtype"],
                  f"{name}: dtype auto on this GPU is {expected} "
                  f"({auto['provenance'].get('dtype')}, weights {auto['param_dtype']})")
            for batch in BATCHES:
                gpu = run({**settings, "dtype": "float32"}, reqs, batch)
                report(f"{name} batch {batch:2d} float32", gpu, len(reqs))
                same = sum(a == b for a, b in zip(gpu["outputs"], cpu[name, batch]["outputs"],
                                                  strict=True))
                check(same == len(reqs), f"{name} batch {batch}: greedy float32 outputs on "
                      f"the GPU equal the CPU's ({same}/{len(reqs)})")
                fast = run(settings, reqs, batch)
                report(f"{name} batch {batch:2d} {expected}", fast, len(reqs))
                agree = sum(a == b for a, b in zip(fast["outputs"], gpu["outputs"],
                                                   strict=True))
                print(f"  {name} batch {batch}: {expected} agrees with float32 on "
                      f"{agree}/{len(reqs)} items (not checked: another dtype)")
            size = translation_size(settings, gpus)
            peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            check(peak_mb <= size.mem_mb, f"{name}: this process's peak host memory "
                  f"{peak_mb:.0f} MB is within the job's request {size.mem_mb} MB")
    print("all checks held" if not failures else f"{len(failures)} check(s) FAILED")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
