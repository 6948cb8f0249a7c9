"""Paid work of a run's commercial MT-service systems, counted over ALL their jobs before the
first request (the ``paid_work`` rule, ``workflow/rules/translate.smk``).

``max_characters`` is a budget per system: a service system runs one translation job per
benchmark (× language), and each job's own check (``MTService.before_sending``) sees only its
own characters. The ``paid_work`` job reads the built inputs of every translation job of every
service system, counts each distinct request once less what the request cache answers (no
network, no key), writes ``{results}/paid_work.json`` and fails, naming the system, when a
system's total exceeds its ``max_characters``; every service system's translation job takes
that file as an input, so nothing is sent before the whole bill is known.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from gendermt.config.systems import settings_on
from gendermt.core.backends import backend_class
from gendermt.core.errors import GenderMTError
from gendermt.translation.backends import output_settings

__all__ = ["count", "estimated_sources", "is_service_system", "service_jobs",
           "settings_for_count", "write"]

#: Of a service system's runtime settings, those the count reads (the rest, concurrency and
#: timeouts, change neither the count nor the file: they are no params of the job).
COUNTED_KEYS = ("price_per_million_chars", "max_characters")


def is_service_system(settings: dict[str, Any]) -> bool:
    """Whether a system is a commercial MT service (its backend is an ``MTService``)."""
    from gendermt.translation.backends.mt_service import is_service

    return is_service(settings)


def settings_for_count(settings: dict[str, Any]) -> dict[str, Any]:
    """A system's settings that decide its paid work: what changes its requests (their cache
    keys) and its price and budget; not concurrency, timeouts, retries."""
    out = dict(output_settings(settings))
    out.update({k: settings[k] for k in COUNTED_KEYS if k in settings})
    return out


def service_jobs(config: dict[str, Any], results: str,
                 run_records: Callable[[str], Iterable[dict[str, Any]]]
                 ) -> list[dict[str, Any]]:
    """``{system, benchmark, inputs, settings}`` of every translation run of a service system:
    its request file under ``results`` and its settings on that benchmark (counted ones)."""
    jobs = []
    for benchmark in config["benchmarks"]:
        for r in run_records(benchmark):
            settings = settings_on(config, benchmark, r["system"])
            if is_service_system(settings):
                jobs.append({"system": r["system"], "benchmark": benchmark,
                             "inputs": f"{results}/{benchmark}/inputs/{r['prompt']}.jsonl",
                             "settings": settings_for_count(settings)})
    return jobs


def estimated_sources(name: str, spec: dict[str, Any], prompts: list[str]
                      ) -> dict[str, dict[str, list[str]]] | None:
    """A benchmark's source texts per prompt and target language, from its contract's
    ``source_texts``, or None: none declared, or no estimate."""
    from gendermt.core import registry
    from gendermt.core.contract import resolve

    hook = registry.get(name).source_texts
    return resolve(hook)(name, spec, prompts) if hook else None


def count(jobs: list[dict[str, Any]], cache_dir: str | Path | None) -> dict[str, dict[str, Any]]:
    """Per system: ``characters`` to send (the distinct requests of all its jobs' inputs, each
    once, less those the request cache answers), ``requests`` (distinct ones), ``price`` (USD
    per million characters), ``cost`` (USD) and ``max_characters`` (None: no budget)."""
    from gendermt.translation.backends.mt_service import _digests, _uncached

    digests: dict[str, dict[str, int]] = {}
    settings_of: dict[str, dict[str, Any]] = {}
    for job in jobs:
        system = job["system"]
        settings_of.setdefault(system, job["settings"])
        digests.setdefault(system, {}).update(_digests(job["settings"], job["inputs"]))
    out: dict[str, dict[str, Any]] = {}
    for system in sorted(digests):
        settings = settings_of[system]
        cls = backend_class(settings)
        price = cls.price(settings)
        chars = _uncached(digests[system], cache_dir)
        budget = settings.get("max_characters")
        out[system] = {"service": cls.service, "characters": chars,
                       "requests": len(digests[system]), "price": price,
                       "cost": round(chars * price / 1e6, 2),
                       "max_characters": None if budget is None else int(budget)}
    return out


def statement(system: str, entry: dict[str, Any]) -> str:
    """One system's line: characters, distinct requests, cost, budget."""
    budget = entry["max_characters"]
    return (f"{system} ({entry['service']}): {entry['characters']:,} characters to send "
            f"({entry['requests']:,} distinct requests of all its jobs, less the request "
            f"cache's answers), {entry['cost']:,.2f} USD at {entry['price']:g} USD per million "
            f"characters; max_characters "
            f"{'none' if budget is None else f'{budget:,}'}")


def over_budget(counts: dict[str, dict[str, Any]]) -> list[str]:
    """One line per system whose characters exceed its ``max_characters``."""
    return [f"systems.{s}: {e['characters']:,} characters to send over all its jobs exceed "
            f"max_characters {e['max_characters']:,}; nothing was sent: raise max_characters "
            f"(or remove it) to send them"
            for s, e in counts.items()
            if e["max_characters"] is not None and e["characters"] > e["max_characters"]]


def write(jobs: list[dict[str, Any]], cache_dir: str | Path | None, output: str | Path,
          say: Callable[[str], None] = print) -> dict[str, dict[str, Any]]:
    """Count, state each system's line through ``say``, write ``output`` (JSON) and raise
    GenderMTError (one line a system) when a system is over its budget: then no file is
    written, so no translation job of a service system can start."""
    counts = count(jobs, cache_dir)
    for system, entry in counts.items():
        say(statement(system, entry))
    errors = over_budget(counts)
    if errors:
        raise GenderMTError("\n".join(errors))
    Path(output).parent.mkdir(parents=True, exist_ok=True)
    Path(output).write_text(json.dumps(counts, indent=2, sort_keys=True) + "\n",
                            encoding="utf-8")
    return counts
