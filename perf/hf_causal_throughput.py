"""Batched vs one-at-a-time throughput of the hf-causal backend, on CPU.

Usage: python perf/hf_causal_throughput.py [--items 64] [--batch-size 16]
                                                 [--max-new-tokens 32]
Builds the tests' tiny random-weight Llama (2 layers, hidden size 32, a chat template) in a
temporary folder, loads it through the real backend with the Hub off, and translates the
FairTranslate sample's first items with the baseline prompt, greedy, in batches and one at
a time. Reports items/s, generated tokens/s and the ratio. The tiny model measures the
backend's overhead and the batching gain where compute is small; real models gain more.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]
os.environ["HF_HUB_OFFLINE"] = "1"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=64)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--max-new-tokens", type=int, default=32)
    args = parser.parse_args()

    import torch

    from gendermt.backends import Request, build_backend
    from gendermt.benchmarks.fairtranslate.data import load
    from gendermt.prompts import load_templates, render
    from tests.tiny_models import build_causal

    torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", torch.get_num_threads())))
    data, _ = load(ROOT / "resources" / "fairtranslate" / "data" /
                   "train-00000-of-00001.parquet")
    template = load_templates(ROOT / "resources" / "prompts" / "fairtranslate.yaml")["baseline"]
    rows = data.drop_duplicates("source").head(args.items)
    requests = []
    for row in rows.itertuples():
        messages = render(template, row.source, row.src_lang, row.tgt_lang)
        requests.append(Request(row.item_id, row.source, messages))
    with tempfile.TemporaryDirectory() as tmp:
        model = build_causal(Path(tmp) / "tiny-causal")
        settings = {"backend": "hf-causal", "model": str(model), "temperature": 0,
                    "max_new_tokens": args.max_new_tokens}
        backend = build_backend(settings, data)
        backend.translate(requests[:2])  # load and warm up
        results = {}
        for label, size in [("batched", args.batch_size), ("one at a time", 1)]:
            start = time.perf_counter()
            outputs = []
            for i in range(0, len(requests), size):
                outputs += backend.translate(requests[i:i + size])
            seconds = time.perf_counter() - start
            tokens = backend.count_tokens(outputs)
            results[label] = (seconds, len(requests) / seconds, tokens / seconds)
            print(f"{label:>14} (batch {size:>3}): {len(requests)} items in {seconds:6.2f} s"
                  f" = {len(requests) / seconds:7.2f} items/s, {tokens / seconds:8.1f} tokens/s")
    ratio = results["batched"][1] / results["one at a time"][1]
    print(f"batched / one-at-a-time throughput: {ratio:.2f}x "
          f"(torch {torch.__version__}, {torch.get_num_threads()} threads, CPU)")


if __name__ == "__main__":
    main()
