"""Requests an NMT system sends for one benchmark under several prompts, prompt jobs in
parallel and the request cache empty: before (every prompt's job translates its inputs) and
after (one job over the distinct sources; the prompts' jobs take their outputs from it).

Usage: python perf/nmt_sources.py [--prompts 4] [--cores 2]

Both runs are real Snakemake runs of FairTranslate's shipped sample with one hf-seq2seq system
(a tiny random-weight Marian model built on the fly: tests/tiny_models.py; on CPU) under the
first N prompts, each in a fresh copy of the project with an empty cache. "Before" is the same
checkout with the translate rule's `sources=` input (and its script's `shared=`) removed: the
workflow as it was. Requests are counted from the jobs' metadata (`requests_sent`); distinct
sources from the inputs.
With --cores 2, two prompt jobs run at a time: before, the first two both start with an empty
cache (the later ones find the first ones' outputs there); on a cluster all of them do.
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

from gendermt.io import read_jsonl  # noqa: E402
from tests import tiny_models  # noqa: E402

ENTRIES = ["Snakefile", "workflow", "config", "resources", "envs", "profiles", "src"]
FT = Path("results/fairtranslate")


def snakemake_exe() -> str:
    beside = Path(sys.executable).parent / "snakemake"
    return str(beside) if beside.exists() else "snakemake"


def project(dest: Path, model: Path, prompts: int, before: bool) -> list[str]:
    dest.mkdir(parents=True)
    for name in ENTRIES:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
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
    ft.pop("system_prompts", None)
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
        sys.exit(proc.stdout[-2000:] + proc.stderr[-4000:])
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--prompts", type=int, default=4)
    parser.add_argument("--cores", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        from transformers import AutoTokenizer

        model = tiny_models.build_seq2seq(Path(tmp) / "marian")
        tok = AutoTokenizer.from_pretrained(model)
        tok.model_max_length = 120  # the tiny model's positions
        tok.save_pretrained(model)
        before = run(Path(tmp) / "before", model, args.prompts, args.cores, before=True)
        after = run(Path(tmp) / "after", model, args.prompts, args.cores, before=False)
    same = before["outputs"] == after["outputs"]
    print(f"## hf-seq2seq on FairTranslate's sample: {args.prompts} prompts, "
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


if __name__ == "__main__":
    main()
