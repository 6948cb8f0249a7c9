"""COMET calls when a fifth system joins a study of four: without the score store (before:
every distinct triple of the benchmark again) and with it (after: only the fifth's new ones);
and the stage's CPU with the store against a plain loop doing the same (issue 30).

Usage: python perf/score_store.py [--items 2418] [--prompts 4] [--workdir DIR]
                                  [--repeats 3] [--small] [--record]

1. The workflow's COMET stage (`gendermt.scoring.comet.comet_benchmark`) on a FairTranslate-
   sized study (items × prompts × systems), with a fake COMET model that counts the triples
   it is asked to score (the stage's code is the real one: collection, de-duplication, store).
   Four systems: copy of the source and a reference oracle (both ignore the prompt), and two
   prompted "LLMs" whose outputs differ by prompt on part of the items; the fifth: an NMT
   system (same output under every prompt) that matches the oracle on a third of the items.
   The expected count, the fifth's triples not among the first four's, is computed apart.
2. Where the COMET environment is built (`make comet-env`), the same on the real
   unbabel-comet code path with a tiny random-weight checkpoint (tests/comet_support), smaller.
3. A/B, with the counting model on both sides: A (gendermt): the stage adding the fifth
   system to a score store holding the four's scores (a fresh copy of that store each time);
   B (bare): the same in a plain loop: every translation file read with ``json``, the
   distinct triples looked up in an in-memory dict of the four's scores, the model's
   ``predict`` called on the rest, every item's score written to a parquet file. Alternating
   A and B in this process after a warm-up of each, CPU seconds; min, median, ratio
   (perf/_ab.py). Both must send the model the same triples, else the script exits 1.
``--small``: 300 items, 2 prompts, one pair, no real-COMET run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import _ab  # noqa: E402 (perf/_ab.py: the A/B comparison)

from gendermt.data.io import write_jsonl  # noqa: E402
from gendermt.scoring import comet  # noqa: E402


def hypotheses(items: int, prompts: int) -> tuple[pd.DataFrame, dict, dict]:
    data = pd.DataFrame({"item_id": [f"i{n}" for n in range(items)],
                         "source": [f"The nurse number {n} finished the shift."
                                    for n in range(items)],
                         "reference": [f"L'infirmière numéro {n} a fini son service."
                                       for n in range(items)]})
    src, ref = list(data["source"]), list(data["reference"])
    names = [f"p{k}" for k in range(prompts)]
    four = {
        "copy-source": {p: src for p in names},
        "oracle": {p: ref for p in names},
        # a prompted model: prompt-dependent output on every other item
        "llm-a": {p: [f"a {n}" + (f" {p}" if n % 2 else "") for n in range(items)]
                  for p in names},
        "llm-b": {p: [f"b {n}" + (f" {p}" if n % 3 == 0 else "") for n in range(items)]
                  for p in names},
    }
    fifth = {"nmt": {p: [ref[n] if n % 3 == 0 else f"nmt {n}" for n in range(items)]
                     for p in names}}
    return data, four, fifth


def write_study(folder: Path, data: pd.DataFrame, systems: dict) -> list[Path]:
    data.to_parquet(folder / "data.parquet", index=False)
    files = []
    for system, runs in systems.items():
        for prompt, hyps in runs.items():
            path = folder / "translations" / system / f"{prompt}.jsonl"
            if not path.exists():
                write_jsonl(path, ({"item_id": i, "hypothesis": h}
                                   for i, h in zip(data["item_id"], hyps, strict=True)))
            files.append(path)
    return files


def triples_of(data: pd.DataFrame, systems: dict) -> set:
    return {(s, h, r) for runs in systems.values() for hyps in runs.values()
            for s, h, r in zip(data["source"], hyps, data["reference"], strict=True)}


def fake_model(counter: list):
    """COMET replaced by a counter; everything else is the workflow's stage. Returns the
    counting ``predict``."""
    def predict(samples, batch_size, gpus, progress_bar):
        counter.append(len(samples))
        return types.SimpleNamespace(scores=[0.5] * len(samples))

    comet._import_comet = lambda: types.SimpleNamespace(__version__="fake")
    comet.resolve_checkpoint = lambda model, cache_dir=None: (Path("fake.ckpt"), "fake:0")
    comet._load = lambda module, ckpt, model: types.SimpleNamespace(predict=predict)
    return predict


def run_stage(folder: Path, files: list[Path], store: Path | None, settings: dict) -> tuple:
    t0 = time.perf_counter()
    comet.comet_benchmark(files, folder / "data.parquet", folder / "comet.parquet",
                          folder / "comet.json", settings, store_dir=store)
    summary = json.loads((folder / "comet.json").read_text(encoding="utf-8"))
    return summary, time.perf_counter() - t0


def study(folder: Path, items: int, prompts: int, settings: dict, counter: list | None
          ) -> dict:
    """Four systems scored with a store; then the fifth added, without and with it."""
    data, four, fifth = hypotheses(items, prompts)
    store = folder / "store"
    files = write_study(folder, data, four)

    def calls(summary: dict) -> int:
        return sum(counter) if counter is not None else summary["scored_this_run"]

    if counter is not None:
        counter.clear()
    summary, _ = run_stage(folder, files, store, settings)
    first = calls(summary)
    files = write_study(folder, data, {**four, **fifth})
    if counter is not None:
        counter.clear()
    before, before_s = run_stage(folder, files, None, settings)
    before_calls = calls(before)
    if counter is not None:
        counter.clear()
    after, after_s = run_stage(folder, files, store, settings)
    return {"items": items, "prompts": prompts, "four_systems_calls": first,
            "fifth_new_triples": len(triples_of(data, fifth) - triples_of(data, four)),
            "all_items": before["items"], "distinct_triples": before["distinct_triples"],
            "before_calls": before_calls, "before_seconds": round(before_s, 2),
            "after_calls": calls(after), "after_seconds": round(after_s, 2),
            "after_from_store": after["from_store"]}


def plain_stage(files: list[Path], data: pd.DataFrame, known: dict, predict, output: Path
                ) -> None:
    """The bare alternative of the stage with a store: the same lookups and calls in a loop."""
    source = dict(zip(data["item_id"], data["source"], strict=True))
    reference = dict(zip(data["item_id"], data["reference"], strict=True))
    rows = []
    for path in files:
        with path.open(encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line)
                item = record["item_id"]
                rows.append((path.parent.name, path.stem, item,
                             (source[item], record["hypothesis"], reference[item])))
    todo = sorted({triple for *_, triple in rows} - known.keys())
    samples = [{"src": s, "mt": h, "ref": r} for s, h, r in todo]
    new = dict(zip(todo, predict(samples, batch_size=16, gpus=0, progress_bar=False).scores,
                   strict=True)) if todo else {}
    pd.DataFrame([(system, prompt, item, known.get(triple, new.get(triple)))
                  for system, prompt, item, triple in rows],
                 columns=["system", "prompt", "item_id", "score"]).to_parquet(output,
                                                                          index=False)


def ab_store(folder: Path, items: int, prompts: int, repeats: int) -> None:
    """A: the stage adding the fifth system through the store; B: ``plain_stage``."""
    counter: list = []
    predict = fake_model(counter)
    data, four, fifth = hypotheses(items, prompts)
    settings = {"model": "fake"}
    files = write_study(folder, data, four)
    run_stage(folder, files, folder / "store-four", settings)
    known = dict.fromkeys(triples_of(data, four), 0.5)
    files = write_study(folder, data, {**four, **fifth})
    calls: dict[str, int] = {}

    def gendermt() -> float:
        store = folder / "store"
        shutil.rmtree(store, ignore_errors=True)
        shutil.copytree(folder / "store-four", store)
        counter.clear()
        seconds = _ab.timed_call("gendermt", lambda: run_stage(folder, files, store, settings))
        calls["gendermt"] = sum(counter)
        return seconds

    def bare() -> float:
        counter.clear()
        seconds = _ab.timed_call("bare", lambda: plain_stage(files, data, known, predict,
                                                             folder / "bare.parquet"))
        calls["bare"] = sum(counter)
        return seconds

    rows = items * prompts * 5
    _ab.compare(f"COMET stage adding a fifth system through the score store, {rows} items",
                gendermt, bare, repeats, note="counting model; B: a dict lookup loop")
    if calls["gendermt"] != calls["bare"]:
        raise _ab.SideFailed("gendermt", f"sent {calls['gendermt']} triples to the model, the "
                                         f"plain loop {calls['bare']}")
    print(f"  triples sent to the model by each side: {calls['bare']}")


def real(workdir: Path) -> None:
    """In the COMET environment: the tiny checkpoint, a smaller study, calls counted by
    unbabel-comet's own predict."""
    sys.path.insert(0, str(ROOT / "tests" / "comet_support"))
    from tiny_comet import build_checkpoint

    build_checkpoint(workdir / "tiny-comet")
    counter: list = []
    predict = comet.score_triples

    def counted(model, triples, batch_size, gpus):
        counter.append(len(triples))
        return predict(model, triples, batch_size, gpus)

    comet.score_triples = counted
    settings = {"model": str(workdir / "tiny-comet"), "batch_size": 32, "gpus": 0}
    print(json.dumps(study(workdir, 60, 4, settings, counter)))


def table(result: dict, what: str) -> None:
    print(f"\n## {what}: {result['items']} items × {result['prompts']} prompts; 4 systems, "
          "then a fifth\n")
    print(f"- four systems: {result['four_systems_calls']} triples scored")
    print(f"- with the fifth: {result['all_items']} items, {result['distinct_triples']} "
          f"distinct triples; the fifth's new triples (computed apart): "
          f"{result['fifth_new_triples']}\n")
    print("| | triples sent to COMET | stage seconds |")
    print("|---|---:|---:|")
    print(f"| before (no store: the benchmark rescored) | {result['before_calls']} | "
          f"{result['before_seconds']} |")
    print(f"| after (score store) | {result['after_calls']} | {result['after_seconds']} |")
    ok = result["after_calls"] == result["fifth_new_triples"]
    print(f"\ncalls after = the fifth's new triples: {'yes' if ok else 'NO'}; "
          f"{result['after_from_store']} read from the store")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    _ab.add_arguments(parser)
    parser.add_argument("--items", type=int, default=2418)
    parser.add_argument("--prompts", type=int, default=4)
    parser.add_argument("--workdir", type=Path)
    parser.add_argument("--real", type=Path, help=argparse.SUPPRESS)  # inside .venv-comet
    args = parser.parse_args(argv)
    if args.real:
        real(args.real)
        return 0
    if args.small:
        args.items, args.prompts, args.repeats = 300, 2, 1
    with tempfile.TemporaryDirectory(dir=args.workdir) as tmp:
        counter: list = []
        fake_model(counter)
        (Path(tmp) / "fake").mkdir()
        table(study(Path(tmp) / "fake", args.items, args.prompts, {"model": "fake"}, counter),
              "COMET stage, counting fake model")
        print()
        (Path(tmp) / "ab").mkdir()
        ab_store(Path(tmp) / "ab", args.items, args.prompts, args.repeats)
        python = ROOT / ".venv-comet" / "bin" / "python"
        if args.small or not python.exists():
            if not args.small:
                print("\n(the COMET environment is absent: `make comet-env` for the real run)")
            return _ab.finish("score_store", args)
        (Path(tmp) / "real").mkdir()
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "HF_HUB_OFFLINE": "1",
               "HF_HOME": str(Path(tmp) / "hf"), "TRANSFORMERS_OFFLINE": "1"}
        proc = subprocess.run([str(python), __file__, "--real", str(Path(tmp) / "real")],
                              capture_output=True, text=True, env=env, cwd=ROOT)
        if proc.returncode:
            sys.exit(f"the real COMET run failed:\n{proc.stderr[-3000:]}")
        table(json.loads(proc.stdout.strip().splitlines()[-1]),
              "real unbabel-comet, tiny random-weight checkpoint")
    return _ab.finish("score_store", args)


if __name__ == "__main__":
    sys.exit(main())
