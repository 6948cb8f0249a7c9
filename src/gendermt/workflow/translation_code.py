"""A translation job's code fingerprint: declared versions, not the code.

Translations are what users pay for (GPU hours, API bills), and the request cache already keys
each answer on its backend's ``request_version`` (gendermt.translation.backends.base): a change
to what a backend sends bumps it, and only then is anything asked again. A translation job's
``code`` param follows the same declarations: the runner's :data:`RUNNER_VERSION`, the backend's
name and ``request_version``, and the code of the readers the backend loads by name (a stored
format's: its own source, not what it imports), so that moving or refactoring the runner or a
backend, or adding one, reruns no translation.
"""

from __future__ import annotations

from typing import Any

from gendermt.translation.backends import BACKENDS, backend_module
from gendermt.workflow.fingerprints import declared_fingerprint, source_fingerprint

#: Bump when a change to the runner (gendermt.translation.runner and what it calls) alters what
#: a translation job writes.
RUNNER_VERSION = 1


def translation_fingerprint(settings: dict[str, Any], *, legacy: bool = True) -> str:
    """The ``code`` param of a translation job of a system with these settings."""
    name = settings.get("backend", "")
    cls = BACKENDS.get(name)
    readers = ([source_fingerprint(m) for m in cls.modules_by_name(settings)]
               if cls is not None and backend_module(settings) else [])
    version = getattr(cls, "request_version", 1)
    return declared_fingerprint("translation", RUNNER_VERSION, name, version, readers,
                                legacy=legacy)
