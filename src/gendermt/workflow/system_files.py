"""The files a configured system needs, checked at start-up like the data sources.

A run's systems read files the workflow does not make: a ``stored`` system's outputs (one file
per benchmark and prompt, its ``path`` with ``{benchmark}`` and ``{prompt}`` filled in), a GGUF
file or a local model folder (``model``). Snakemake treats a missing one as no producer for the
job that reads it, and, where that job's outputs are already on disk from an earlier run, takes
those old outputs as source files and builds tables from them (issue 33). So every such file
of every run the config plans is checked before anything is planned (:func:`check_system_files`),
and the error names the system, the config key and the path, one line per system.

(Templates are checked by :mod:`gendermt.config.checks`, data by :mod:`gendermt.data.sources`.)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gendermt.core import backends
from gendermt.core.errors import GenderMTError

SHOWN = 4  # missing paths named per system; the rest are counted


@dataclass(frozen=True)
class SystemFile:
    """One file a system needs: which system, which config key, where, for which run."""

    system: str
    key: str  # e.g. systems.my-outputs.path
    path: str
    kind: str  # "stored outputs", "GGUF file", "model folder"
    benchmark: str = ""
    prompt: str = ""

    def exists(self) -> bool:
        if self.kind == "GGUF file":
            from gendermt.translation.backends.gguf import locate

            try:
                locate(self.path)
            except GenderMTError:
                return False
            return True
        return Path(self.path).expanduser().exists()


def is_local_model(model: str) -> bool:
    """Whether a ``model`` setting names a path rather than a Hub id (``org/name``): an
    absolute path, ``~``, ``./`` or ``../``, or more than one ``/``."""
    text = str(model)
    return (text.startswith(("/", "~", "./", "../")) or text.count("/") > 1)


def _key(config: Mapping[str, Any], benchmark: str, system: str, setting: str) -> str:
    overrides = (config.get("benchmarks", {}).get(benchmark, {}).get("decoding", {})
                 .get(system, {}))
    if setting in overrides:
        return f"benchmarks.{benchmark}.decoding.{system}.{setting}"
    return f"systems.{system}.{setting}"


def system_files(config: Mapping[str, Any],
                 runs: Mapping[str, Iterable[Mapping[str, Any]]]) -> list[SystemFile]:
    """Every file the systems of ``runs`` (per benchmark, ``{system, prompt}`` records: the
    workflow's ``run_records``) need, once each, in run order."""
    from gendermt.config.systems import settings_on
    from gendermt.translation.backends.gguf import is_gguf
    from gendermt.translation.backends.stored import resolve_path

    found: dict[tuple[str, str], SystemFile] = {}
    for benchmark, records in runs.items():
        for record in records:
            system, prompt = record["system"], record["prompt"]
            settings = settings_on(dict(config), benchmark, system)
            about = backends.info(str(settings.get("backend")))
            # the settings its backend declares to name a file (gendermt.core.backends)
            for setting, what in (about.files.items() if about else ()):
                if setting not in settings:
                    continue
                if what == "stored outputs":
                    path = resolve_path(settings[setting], {"benchmark": benchmark,
                                                            "prompt": prompt})
                    found.setdefault((system, path), SystemFile(
                        system, _key(config, benchmark, system, setting), path,
                        "stored outputs", benchmark, prompt))
                    continue
                model = str(settings[setting])
                kind = ("GGUF file" if is_gguf(model)
                        else "model folder" if is_local_model(model) else None)
                if kind is not None:
                    found.setdefault((system, model), SystemFile(
                        system, _key(config, benchmark, system, setting), model, kind,
                        benchmark, prompt))
    return list(found.values())


#: What to do about a missing file, by kind (a model's advice is not a stored output's).
HINTS = {
    "stored outputs": "write the files (`gendermt stored template --benchmark B --out DIR` "
                      "writes an empty one per prompt) or fix the key; nothing was run",
    "model folder": "a model folder holds the model's config.json, tokenizer files and "
                    "weights (e.g. `huggingface-cli download ORG/NAME --local-dir DIR`, or a "
                    "Hub id ORG/NAME instead of a path; docs/system-files.md) or fix "
                    "the key; nothing was run",
    "GGUF file": "give the .gguf file's path, or an installed package's file "
                 "(package/file.gguf; docs/backends.md), or fix the key; nothing was run",
}


def missing_lines(files: Iterable[SystemFile]) -> list[tuple[str, str]]:
    """One line per system with missing files (the system, the key and the paths), with the
    files' kind."""
    by_system: dict[tuple[str, str, str], list[SystemFile]] = {}
    for file in files:
        if not file.exists():
            by_system.setdefault((file.system, file.key, file.kind), []).append(file)
    lines = []
    for (system, key, kind), missing in by_system.items():
        shown = ", ".join(
            f"{f.path} ({f.benchmark}, prompt {f.prompt})" if kind == "stored outputs"
            else f.path for f in missing[:SHOWN])
        more = f" and {len(missing) - SHOWN} more" if len(missing) > SHOWN else ""
        lines.append((f"system {system}: {key}: {kind} not found: {shown}{more}", kind))
    return lines


def check_system_files(config: Mapping[str, Any],
                       runs: Mapping[str, Iterable[Mapping[str, Any]]]) -> None:
    """Stop, naming system, key and path, if a file a planned run needs does not exist."""
    lines = missing_lines(system_files(config, runs))
    if lines:
        raise GenderMTError("\n".join(f"{line} ({HINTS[kind]})" for line, kind in lines))
