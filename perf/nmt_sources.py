"""Requests an NMT system sends for one benchmark under several prompts, prompt jobs in
parallel and the request cache empty: before (every prompt's job translates its inputs) and
after (one job over the distinct sources; the prompts' jobs take their outputs from it); and
the workflow's CPU for it against transformers called directly (issue 30).

Usage: python perf/nmt_sources.py [--prompts 4] [--cores 2] [--repeats 1] [--small] [--record]

Both runs are real Snakemake runs of FairTranslate's shipped sample with one hf-seq2seq system
(a tiny random-weight Marian model built on the fly: tests/tiny_models.py; on CPU) under the
first N prompts, each in a fresh copy of the project with an empty cache. "Before" is the same
checkout with the translate rule's `sources=` input (and its script's `shared=`) removed: the
workflow as it was. Requests are counted from the jobs' metadata (`requests_sent`); distinct
sources from the inputs.
With --cores 2, two prompt jobs run at a time: before, the first two both start with an empty
cache (the later ones find the first ones' outputs there); on a cluster all of them do.

A/B: A (gendermt): the "after" run, ``snakemake`` on the prompts' translations in a fresh
copy with an empty cache, CPU seconds of Snakemake and every job it ran; B (bare): one Python
process that loads the same model with transformers and translates the distinct sources once
(batches of 16, greedy, 8 new tokens: the system's settings), the least work that gives every
prompt its outputs. Alternating A and B after a warm-up of each; min, median, ratio
(perf/_ab.py). The ratio is what the workflow (planning, the data, inputs and shared-sources
jobs, a job per prompt, the cache, the provenance) costs over the model's own work; on a
real model the model's work dominates. ``--small``: 2 prompts, one pair without a warm-up,
no before/after table.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import _ab  # noqa: E402 (perf/_ab.py: the A/B comparison)

from gendermt.data.io import read_jsonl  # noqa: E402
from tests import tiny_models  # noqa: E402

ENTRIES = ["Snakefile", "workflow", "config", "resources", "envs", "profiles", "src"]
FT = Path("results/default/fairtranslate")  # the default config's run: default
# B: the model's own work, nothing else (argv: model folder, JSON list of sources)
BARE = """
import json, sys
import torch
from transformers import AutoModelForSeq2SeqLM, AutoTokenizer
tok = AutoTokenizer.from_pretrained(sys.argv[1])
model = AutoModelForSeq2SeqLM.from_pretrained(sys.argv[1]).eval()
sources = json.load(open(sys.argv[2], encoding="utf-8"))
outputs = []
for i in range(0, len(sources), 16):
    enc = tok(sources[i:i + 16], return_tensors="pt", padding=True, truncation=True)
    with torch.inference_mode():
        out = model.generate(**enc, max_new_tokens=8, do_sample=False, num_beams=1)
    outputs += [t.strip() for t in tok.batch_decode(out, skip_special_tokens=True)]
assert len(outputs) == len(sources)
"""


def snakemake_exe() -> str:
    beside = Path(sys.executable).parent / "snakemake"
    return str(beside) if beside.exists() else "snakemake"


def project(dest: Path, model: Path, prompts: int, before: bool) -> list[str]:
    dest.mkdir(parents=True)
    for name in ENTRIES:
        src = ROOT / name
        if src.is_dir():
            # bytecode kept (valid: copy2 keeps the sources' mtimes), so that each fresh copy
            # does not pay compiling the package, which a checkout pays once
            shutil.copytree(src, dest / name, ignore=shutil.ignore_patterns("*.egg-info"))
        else:
            shutil.copy2(src, dest / name)
    if before:
        rule = dest / "workflow" / "rules" / "translate.smk"
        text = rule.read_text(encoding="utf-8")
        rule.write_text(re.sub(r"^\s*source_translations=source_translation_of,\n", "", text,
                               flags=re.M), encoding="utf-8")
        script = dest / "workflow" / "scripts" / "translate.py"
        text = script.read_text(encoding="utf-8")
        script.write_text(re.sub(r"^\s*shared=.*\n(\s+if .*\n)?", "", text, flags=re.M),
                          encoding="utf-8")
    config_file = dest / "config" / "config.yaml"
    config = yaml.safe_load(config_file.read_text(encoding="utf-8"))
    ft = config["benchmarks"]["fairtranslate"]
    # per-system settings name the default's systems, which this project does not run
    ft.pop("system_prompts", None)
    ft.pop("decoding", None)
    names = ft["prompts"][:prompts]
    config["benchmarks"] = {"fairtranslate": {**ft, "systems": ["nmt"], "prompts": names}}
    config["systems"] = {"nmt": {"backend": "hf-seq2seq", "model": str(model),
                                 "max_new_tokens": 8, "gpus": 0, "batch_size": 16}}
    config["cache"] = {"dir": str(dest / "cache"), "enabled": True}
    config_file.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    return names


def run(dest: Path, model: Path, prompts: int, cores: int, before: bool) -> dict:
    names = project(dest, model, prompts, before)
    targets = [str(FT / "translations" / "nmt" / f"{p}.jsonl") for p in names]
    t0 = time.perf_counter()
    proc = subprocess.run([snakemake_exe(), *targets, "--cores", str(cores)], cwd=dest,
                          capture_output=True, text=True, timeout=3600)
    wall = time.perf_counter() - t0
    if proc.returncode:
        raise _ab.SideFailed("gendermt", f"snakemake (exit {proc.returncode}):\n"
                                         f"{proc.stdout[-2000:]}{proc.stderr[-4000:]}")
    metas = [json.loads(p.read_text()) for p in (dest / FT).glob("*/nmt*.meta.json")]
    metas += [json.loads(p.read_text()) for p in (dest / FT / "translations" / "nmt").glob(
        "*.meta.json")]
    distinct = {(r["source"], r.get("src_lang", ""), r.get("tgt_lang", ""))
                for p in names for r in read_jsonl(dest / FT / "inputs" / f"{p}.jsonl")}
    items = sum(len(read_jsonl(dest / FT / "inputs" / f"{p}.jsonl")) for p in names)
    outputs = {p: [r["raw"] for r in read_jsonl(dest / FT / "translations" / "nmt" /
                                                f"{p}.jsonl")] for p in names}
    return {"requests": sum(m["requests_sent"] for m in metas), "distinct": len(distinct),
            "items": items, "wall": wall, "outputs": outputs}


def ab(tmp: Path, model: Path, prompts: int, cores: int, repeats: int, warmup: bool = True
       ) -> None:
    """A: the workflow's run in a fresh copy; B: transformers over the distinct sources."""
    runs = iter(range(10**6))
    sources = tmp / "sources.json"

    def gendermt() -> float:
        dest = tmp / f"ab-{next(runs)}"
        names = project(dest, model, prompts, before=False)
        targets = [str(FT / "translations" / "nmt" / f"{p}.jsonl") for p in names]
        seconds, _ = _ab.run_child("gendermt", [snakemake_exe(), *targets, "--cores",
                                                str(cores)], cwd=dest)
        if not sources.exists():
            distinct = sorted({r["source"] for p in names
                               for r in read_jsonl(dest / FT / "inputs" / f"{p}.jsonl")})
            sources.write_text(json.dumps(distinct), encoding="utf-8")
        shutil.rmtree(dest, ignore_errors=True)
        return seconds

    def bare() -> float:
        return _ab.run_child("bare", [sys.executable, "-c", BARE, str(model), str(sources)])[0]

    # the warm-ups; A runs first either way: it gives B its sources (the workflow's inputs)
    if warmup:
        gendermt()
        bare()
    _ab.compare(f"FairTranslate sample through a tiny hf-seq2seq system, {prompts} prompts, "
                f"--cores {cores}, empty cache", gendermt, bare, repeats, warmup=False,
                note="B: transformers over the distinct sources in one process")
    print(f"  distinct sources: {len(json.loads(sources.read_text(encoding='utf-8')))}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    _ab.add_arguments(parser, repeats=1)
    parser.add_argument("--prompts", type=int, default=4)
    parser.add_argument("--cores", type=int, default=2)
    args = parser.parse_args(argv)
    if args.small:
        args.prompts, args.repeats = 2, 1
    with tempfile.TemporaryDirectory() as tmp:
        from transformers import AutoTokenizer

        model = tiny_models.build_seq2seq(Path(tmp) / "marian")
        tok = AutoTokenizer.from_pretrained(model)
        tok.model_max_length = 120  # the tiny model's positions
        tok.save_pretrained(model)
        ab(Path(tmp), model, args.prompts, args.cores, args.repeats, warmup=not args.small)
        if args.small:
            return _ab.finish("nmt_sources", args)
        before = run(Path(tmp) / "before", model, args.prompts, args.cores, before=True)
        after = run(Path(tmp) / "after", model, args.prompts, args.cores, before=False)
    same = before["outputs"] == after["outputs"]
    print(f"\n## hf-seq2seq on FairTranslate's sample: {args.prompts} prompts, "
          f"{before['items']} items, {before['distinct']} distinct sources; "
          f"--cores {args.cores}, empty cache\n")
    print("| | requests sent | Snakemake wall (s) |")
    print("|---|---:|---:|")
    print(f"| before (one job per prompt) | {before['requests']} | {before['wall']:.0f} |")
    print(f"| after (one job over the distinct sources) | {after['requests']} | "
          f"{after['wall']:.0f} |")
    print(f"\nrequests after = distinct sources: "
          f"{'yes' if after['requests'] == after['distinct'] else 'NO'}; "
          f"outputs identical before/after: {'yes' if same else 'NO'}")
    return _ab.finish("nmt_sources", args)


if __name__ == "__main__":
    sys.exit(main())
