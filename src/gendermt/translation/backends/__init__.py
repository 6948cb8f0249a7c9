"""Translation backends, looked up by the ``backend`` name a system has in config.

Each backend declares itself in its own module (its ``ABOUT`` block, read by
:mod:`gendermt.core.backends` without importing it); the module is imported only when a system
names it, so that a translation job runs (and its code fingerprint covers) the runner and its
own backend only.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from gendermt.config.canonical import canonical
from gendermt.config.systems import KEY_NOT_SHOWN, plausible_env_name
from gendermt.core.backends import BACKENDS, backend_class, info
from gendermt.translation.backends.base import Backend, ItemFailed, Request

if TYPE_CHECKING:  # pandas is imported by the jobs that build a backend, not at planning
    import pandas as pd


def backend_module(settings: dict[str, Any]) -> str | None:
    """The module of a system's backend (None for one a test registered)."""
    found = info(settings.get("backend", ""))
    return found.module if found else None


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



def output_settings(settings: dict[str, Any]) -> dict[str, Any]:
    """A system's settings less those that change how a job runs but not its outputs (the
    backend's ``runtime_keys``, ``batch_size``, ``gpus``): the translation job's params, so
    that changing concurrency, timeouts or retries reruns nothing; in canonical form (sorted
    keys, whole-number floats as ints), so that reordering a system's YAML block reruns
    nothing either."""
    return canonical(backend_class(settings).output_settings(settings))


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


__all__ = ["BACKENDS", "Backend", "ItemFailed", "Request", "backend_module", "build_backend",
           "output_settings", "system_gpus", "system_modules", "unset_api_keys"]
