"""Throughput of the hf-causal backend on CPU against plain transformers on the same model and
requests (and batched against one at a time).

Usage: python perf/hf_causal_throughput.py [--items 64] [--batch-size 16]
                                           [--max-new-tokens 32] [--repeats 3] [--small]
                                           [--record]
Builds the tests' tiny random-weight Llama (2 layers, hidden size 32, a chat template) in a
temporary folder and translates the FairTranslate sample's first distinct sources with the
baseline prompt, greedy, in batches of --batch-size:
A (gendermt): the real backend (``build_backend``, the Hub off), ``translate`` per batch;
B (bare): transformers alone: the chat template, left padding, ``model.generate`` per batch,
decode. Alternating A and B in this process after a warm-up of each, CPU seconds of the
process (all threads); min, median, ratio. Then the backend one item at a time against
batched (the batching gain). The tiny model measures the backend's overhead where compute
is small; real models gain more from batching. ``--small``: 8 items, batches of 4, 8 tokens.
"""


from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]
os.environ["HF_HUB_OFFLINE"] = "1"
sys.path.insert(0, str(Path(__file__).resolve().parent))
import _ab  # noqa: E402 (perf/_ab.py: the A/B comparison)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    _ab.add_arguments(parser)
    parser.add_argument("--items", type=int, default=64)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--max-new-tokens", type=int, default=32)
    args = parser.parse_args(argv)
    if args.small:
        args.items, args.batch_size, args.max_new_tokens, args.repeats = 8, 4, 8, 1

    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from gendermt.benchmarks.fairtranslate.data import load
    from gendermt.config.templates import load_templates
    from gendermt.translation.backends import Request, build_backend
    from gendermt.translation.prompts import render
    from tests.tiny_models import build_causal

    torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", torch.get_num_threads())))
    data, _ = load(ROOT / "resources" / "fairtranslate" / "data" /
                   "train-00000-of-00001.parquet")
    template = load_templates(ROOT / "src/gendermt/benchmarks/fairtranslate/prompts"
                               / "translate.yaml")["baseline"]
    rows = data.drop_duplicates("source").head(args.items)
    requests = []
    for row in rows.itertuples():
        messages = render(template, row.source, row.src_lang, row.tgt_lang)
        requests.append(Request(row.item_id, row.source, messages))
    size = args.batch_size
    with tempfile.TemporaryDirectory() as tmp:
        model_dir = build_causal(Path(tmp) / "tiny-causal")
        settings = {"backend": "hf-causal", "model": str(model_dir), "temperature": 0,
                    "max_new_tokens": args.max_new_tokens}
        backend = build_backend(settings, data)
        tokenizer = AutoTokenizer.from_pretrained(model_dir)
        tokenizer.padding_side = "left"
        if tokenizer.pad_token is None:
            tokenizer.pad_token = tokenizer.eos_token
        model = AutoModelForCausalLM.from_pretrained(model_dir).eval()

        def gendermt(batch: int = size) -> None:
            for i in range(0, len(requests), batch):
                backend.translate(requests[i:i + batch])

        def bare() -> None:
            for i in range(0, len(requests), size):
                prompts = [tokenizer.apply_chat_template(r.messages, tokenize=False,
                                                         add_generation_prompt=True)
                           for r in requests[i:i + size]]
                enc = tokenizer(prompts, return_tensors="pt", padding=True)
                with torch.no_grad():
                    out = model.generate(**enc, do_sample=False,
                                         max_new_tokens=args.max_new_tokens,
                                         pad_token_id=tokenizer.pad_token_id)
                tokenizer.batch_decode(out[:, enc["input_ids"].shape[1]:],
                                       skip_special_tokens=True)

        n = f"{len(requests)} items, batches of {size}, {args.max_new_tokens} new tokens"
        _ab.compare(f"hf-causal backend vs plain transformers, tiny Llama, {n}",
                    lambda: _ab.timed_call("gendermt", gendermt),
                    lambda: _ab.timed_call("bare", bare), args.repeats,
                    note=f"torch {torch.__version__}, {torch.get_num_threads()} threads, CPU")
        _ab.compare(f"hf-causal backend one at a time vs batched, tiny Llama, {n}",
                    lambda: _ab.timed_call("gendermt", lambda: gendermt(1)),
                    lambda: _ab.timed_call("bare", gendermt), args.repeats, warmup=False,
                    note="A: batch size 1, B: the batch size above")
    return _ab.finish("hf_causal_throughput", args)


if __name__ == "__main__":
    sys.exit(main())
