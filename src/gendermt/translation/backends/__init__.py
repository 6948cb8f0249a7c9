"""Translation backends, looked up by the ``backend`` name a system has in config.

Each backend's module is imported only when a system names it, so that a translation job
runs (and its code fingerprint covers) the runner and its own backend only: editing one
backend reruns the systems that use it, not every system (``BACKEND_MODULES``).
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from gendermt.config.canonical import canonical
from gendermt.core.errors import GenderMTError
from gendermt.translation.backends.base import Backend, ItemFailed, Request

if TYPE_CHECKING:  # pandas is imported by the jobs that build a backend, not at planning
    import pandas as pd

#: Backend name → "module:class". Model backends keep their heavy imports (torch, vllm)
#: inside methods, so importing a module is cheap for every rule.
BACKEND_CLASSES: dict[str, str] = {
    "reference-oracle": "gendermt.translation.backends.offline:ReferenceOracle",
    "copy-source": "gendermt.translation.backends.offline:CopySource",
    "rule-rewriter": "gendermt.translation.backends.rule_rewriter:RuleRewriter",
    "stored": "gendermt.translation.backends.stored:Stored",
    "hf-seq2seq": "gendermt.translation.backends.hf:HFSeq2Seq",
    "hf-causal": "gendermt.translation.backends.hf:HFCausal",
    "vllm": "gendermt.translation.backends.vllm_backend:VLLM",
    "openai-compatible": "gendermt.translation.backends.openai_api:OpenAICompatible",
    "deepl": "gendermt.translation.backends.deepl_api:DeepL",
    "google-translate": "gendermt.translation.backends.google_translate:GoogleTranslate",
    "apertium": "gendermt.translation.backends.apertium:Apertium",
    # issue 50, paid MT services on mt_service.MTService: extras `microsoft`, `amazon`
    "microsoft-translator": "gendermt.translation.backends.microsoft:MicrosoftTranslator",
    "amazon-translate": "gendermt.translation.backends.amazon:AmazonTranslate",
}
#: Backend name → the module that implements it (for code fingerprints).
BACKEND_MODULES: dict[str, str] = {n: spec.partition(":")[0]
                                   for n, spec in BACKEND_CLASSES.items()}


class _Registry(dict):
    """``BACKENDS``: name → class, each imported on first use (tests add their own)."""

    def __missing__(self, name: str) -> type[Backend]:
        if name not in BACKEND_CLASSES:
            raise KeyError(name)
        module, _, cls = BACKEND_CLASSES[name].partition(":")
        found = getattr(importlib.import_module(module), cls)
        self[name] = found
        return found

    def __contains__(self, name: object) -> bool:
        return dict.__contains__(self, name) or name in BACKEND_CLASSES

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(set(dict.keys(self)) | set(BACKEND_CLASSES)))

    def __len__(self) -> int:
        return len(set(dict.keys(self)) | set(BACKEND_CLASSES))

    def keys(self):  # type: ignore[override]
        return list(iter(self))

    def get(self, name: str, default: Any = None) -> Any:  # type: ignore[override]
        return self[name] if name in self else default  # noqa: SIM401 (imports on demand)


BACKENDS: dict[str, type[Backend]] = _Registry()


def backend_module(settings: dict[str, Any]) -> str | None:
    """The module of a system's backend (None for one a test registered)."""
    return BACKEND_MODULES.get(settings.get("backend", ""))


def system_modules(settings: dict[str, Any]) -> list[str]:
    """The modules a system's backend runs that its job's code fingerprint names: the
    backend's module and those it loads by name (a ``stored`` format's reader); [] for a
    backend a test registered."""
    module = backend_module(settings)
    if module is None:
        return []
    return [module, *BACKENDS[settings["backend"]].modules_by_name(settings)]


def system_gpus(settings: dict[str, Any]) -> int:
    """GPUs a translation job of this system asks for (``gpus`` in config, else the default)."""
    if "gpus" in settings:
        return int(settings["gpus"])
    cls = BACKENDS.get(settings.get("backend", ""))
    return cls.default_gpus if cls else 0


def system_kind(settings: dict[str, Any]) -> str:
    """``model``, ``baseline`` or ``oracle``: the system's ``kind`` in config, else its
    backend's (reference oracles are oracles, copy-source a baseline, the rest models)."""
    if "kind" in settings:
        return str(settings["kind"])
    cls = BACKENDS.get(settings.get("backend", ""))
    return cls.default_kind if cls else "model"


def backend_class(settings: dict[str, Any]) -> type[Backend]:
    name = settings.get("backend")
    if name not in BACKENDS:
        raise GenderMTError(f"unknown backend {name!r}; available: {', '.join(sorted(BACKENDS))}")
    return BACKENDS[name]


def check_system(settings: dict[str, Any]) -> None:
    """Fail early (at workflow start-up) on an unknown backend or bad settings."""
    backend_class(settings).check_settings(settings)


def output_settings(settings: dict[str, Any]) -> dict[str, Any]:
    """A system's settings less those that change how a job runs but not its outputs (the
    backend's ``runtime_keys``, ``batch_size``, ``gpus``): the translation job's params, so
    that changing concurrency, timeouts or retries reruns nothing; in canonical form (sorted
    keys, whole-number floats as ints), so that reordering a system's YAML block reruns
    nothing either."""
    return canonical(backend_class(settings).output_settings(settings))


#: What ``api_key_env`` may hold: an environment variable's name. Anything else (a key pasted
#: in its place, most often) is refused with KEY_NOT_SHOWN, never echoed: the message reaches
#: the terminal and Snakemake's log.
ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}")
KEY_NOT_SHOWN = ("api_key_env must name an environment variable; the value given looks like "
                 "a key and is not shown")


def plausible_env_name(value: Any) -> bool:
    """Whether ``value`` can be the name of an environment variable (``ENV_NAME``)."""
    return isinstance(value, str) and ENV_NAME.fullmatch(value) is not None


def unset_api_keys(systems: dict[str, dict[str, Any]], names: Any) -> list[str]:
    """One line per system of ``names`` whose ``api_key_env`` names an unset environment
    variable (checked before any job runs, not when the first job starts), or holds what
    cannot be a variable's name (not shown)."""
    found = []
    for name in sorted(set(names)):
        env = (systems.get(name) or {}).get("api_key_env")
        if env is not None and not plausible_env_name(env):
            found.append(f"systems.{name}.api_key_env: {KEY_NOT_SHOWN}")
        elif env and not os.environ.get(str(env)):
            found.append(f"systems.{name}.api_key_env: the environment variable {env} is not "
                         f"set; export it with the API key before running")
        cls = BACKENDS.get((systems.get(name) or {}).get("backend", ""))
        if cls is not None:  # a vendor's credential chain, other variables (Backend hook)
            found.extend(f"systems.{name}: {line}"
                         for line in cls.missing_credentials(systems[name]))
    return found


def settings_on(config: dict[str, Any], benchmark: str, system: str) -> dict[str, Any]:
    """A system's settings on a benchmark: its `systems:` entry with the benchmark's
    `decoding:` overrides for it (e.g. more new tokens for a step-by-step prompt)."""
    overrides = (config.get("benchmarks", {}).get(benchmark, {}).get("decoding", {})
                 .get(system, {}))
    return {**config["systems"][system], **overrides}


def build_backend(settings: dict[str, Any], data: pd.DataFrame | str | os.PathLike[str],
                  context: dict[str, str] | None = None) -> Backend:
    """The backend of one job; ``context`` (``benchmark``, ``prompt``) fills in settings that
    depend on the job, such as a ``stored`` system's file. ``data``: the benchmark's data
    table, or its parquet file, read only if the backend reads data (``Backend.load_data``)."""
    cls = backend_class(settings)
    cls.check_settings(settings)
    if isinstance(data, (str, os.PathLike)):
        data = cls.load_data(data)
    return cls(cls.resolve_settings(settings, context or {}), data)


__all__ = ["BACKENDS", "BACKEND_MODULES", "Backend", "ItemFailed", "Request",
           "backend_module", "build_backend", "check_system", "output_settings",
           "settings_on", "system_gpus", "system_kind", "system_modules", "unset_api_keys",
           "KEY_NOT_SHOWN", "plausible_env_name"]
