"""A translation job's ``code`` param: declared versions, not the code.

Translations are what users pay for (GPU hours, API bills), and the request cache already keys
each answer on its backend's ``request_version`` (gendermt.translation.backends.base): a change
to what a backend sends bumps it, and only then is anything asked again. A translation job's
``code`` param follows the same declarations (gendermt.workflow.stage_versions.translation_code):
the runner's declared version, the backend's name and ``request_version``, and the versions of
the readers the backend loads by name (a stored format's), so that moving or refactoring the
runner or a backend, or adding one, reruns no translation.
"""

from __future__ import annotations

from typing import Any

from gendermt.translation.backends import BACKENDS, backend_module
from gendermt.workflow.stage_versions import translation_code


def translation_code_of(settings: dict[str, Any]) -> str:
    """The ``code`` param of a translation job of a system with these settings."""
    name = settings.get("backend", "")
    cls = BACKENDS.get(name)
    readers = (list(cls.modules_by_name(settings))
               if cls is not None and backend_module(settings) else [])
    return translation_code(name, getattr(cls, "request_version", 1), readers)
