"""Systems that read only the source (NMT, Apertium): each distinct source translated once
across prompts, also when the prompts' jobs run in parallel.

Such a system's output depends on the source and the language pair, not on the prompt, so the same
benchmark under several prompts asks it the same thing several times. The request cache answers the
repeats only when the prompts' jobs run one after another; parallel jobs (several GPUs, a cluster)
all start with an empty cache and translate everything. Here one job per system and benchmark
(`translate_sources` in workflow/rules/translate_sources.smk) translates the distinct requests of
every prompt the system runs, through the same resumable, cached
:func:`gendermt.translation.runner.translate_file`; each prompt's job then takes its raw outputs
from that file (:func:`shared_outputs`, keyed by the request digest the backend gives each request,
so a job with other settings finds nothing there) and sends nothing, on no GPU.

Which systems: a backend with ``prompted = False`` that is ``cacheable`` (lookups such as the
oracles answer per item, not per source), running two or more prompts of the benchmark.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gendermt.core.backends import backend_class
from gendermt.data.io import read_jsonl, write_jsonl
from gendermt.translation.backends import Request

PROMPT = "sources"  # the `prompt` of the distinct-source requests (no template: no prompt)


def shares_source_translation(settings: dict[str, Any], prompts: int) -> bool:
    """Whether a system's prompts share one translation of the distinct sources."""
    cls = backend_class(settings)
    return not cls.prompted and cls.cacheable and prompts >= 2


def sidecars(translations: str | Path) -> tuple[Path, Path]:
    """The requests file and the metadata beside ``sources/{system}.jsonl``."""
    path = Path(translations)
    stem = path.name.removesuffix(".jsonl")
    return path.with_name(f"{stem}.inputs.jsonl"), path.with_name(f"{stem}.meta.json")


def distinct_requests(input_files: Sequence[str | Path]) -> list[dict[str, Any]]:
    """One request per distinct (source, source language, target language) of the inputs,
    in order of first appearance, as an inputs file's records (no messages: the system reads
    only the source)."""
    seen: dict[tuple[str, str, str], dict[str, Any]] = {}
    for path in input_files:
        for rec in read_jsonl(path):
            key = (rec["source"], rec.get("src_lang", ""), rec.get("tgt_lang", ""))
            if key not in seen:
                seen[key] = {"item_id": f"s{len(seen)}", "source": key[0], "messages": [],
                             "src_lang": key[1], "tgt_lang": key[2], "prompt": PROMPT}
    return list(seen.values())


def translate_sources(input_files: Sequence[str | Path], data: str | Path, system: str,
                      settings: dict[str, Any], requests: str | Path, output: str | Path,
                      meta: str | Path, cache_dir: str | Path | None = None,
                      benchmark: str = "", threads: int | None = None) -> None:
    """Workflow stage: every prompt's ``inputs/{prompt}.jsonl`` → the distinct requests
    (``requests``, each with the request cache's digest the system gives it) → their raw
    outputs (``output``, ``meta``), resumable and cached as any translation."""
    # the runner (engine, cache) is imported by this job only: the workflow imports this
    # module to plan (shares_source_translation)
    from gendermt.translation.runner import job_backend, translate_records

    records = distinct_requests(input_files)
    # the job's one backend (its settings resolved once): its own key (identity, request
    # code version, what it sends) for each request, then the translation; building it loads
    # no model
    backend = job_backend(settings, data, benchmark, PROMPT, threads)
    for rec in records:
        rec["digest"] = backend.request_digest(Request(
            rec["item_id"], rec["source"], [], rec["src_lang"], rec["tgt_lang"]))
    write_jsonl(requests, records)
    translate_records(records, backend, system, output, meta, (), cache_dir=cache_dir,
                      benchmark=benchmark)


def shared_outputs(translations: str | Path) -> dict[str, str]:
    """Raw outputs of a ``sources/{system}.jsonl`` by request digest, for
    ``translate_file(shared=...)``: a prompt's job whose system gives a request the same
    digest (same settings, same request code) takes its output from here."""
    requests, _ = sidecars(translations)
    raw = {rec["item_id"]: rec["raw"] for rec in read_jsonl(translations)}
    return {r["digest"]: raw[r["item_id"]] for r in read_jsonl(requests)}
