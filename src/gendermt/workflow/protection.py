"""The project's own stop for protected outputs (README, "Protected outputs"; docs/cache.md).

Snakemake refuses to redo a ``protected()`` output only when the file is not writable for the
user running it: for root (CI, containers, many clusters) every file is writable, and a prompt
edit silently re-sent every paid request. This check reads the lock itself: a planned job
whose protected output exists with its owner's write bit cleared (as ``protected()`` leaves
it) stops the run before any job runs, whoever runs it, naming the files and the flag that
allows the rerun (``--config rerun_protected=true``); ``chmod u+w`` on the files (or deleting
them) unlocks them one by one, as before.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from typing import Any

#: The config key (``--config rerun_protected=true``) that lets a run redo protected outputs.
FLAG = "rerun_protected"


def rerun_allowed(config: dict[str, Any]) -> bool:
    """Whether the config lets this run redo protected outputs (``--config`` gives the
    string ``"true"``, a config file the boolean)."""
    return str(config.get(FLAG, False)).lower() == "true"


def locked(path: str | os.PathLike) -> bool:
    """A file whose owner may not write it (``protected()``'s lock); symlinks never are."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISREG(st.st_mode) and not st.st_mode & stat.S_IWUSR


def protected_reruns(jobs: Iterable[Any]) -> list[str]:
    """The locked protected outputs of ``jobs`` (Snakemake jobs about to run)."""
    found: list[str] = []
    for job in jobs:
        for f in job.output:
            if "protected" in (getattr(f, "flags", None) or {}) and locked(str(f)):
                found.append(str(f))
    return sorted(set(found))


def stop_message(paths: list[str], changed: list[str] | None = None) -> str:
    """Why the run stops, what it would redo, and how to allow it; ``changed``: the settings
    (or code) of their systems that changed since they were made, a line each, old → new
    (gendermt.workflow.made_with.changed_settings)."""
    shown = "\n  ".join(paths[:20]) + (f"\n  ... ({len(paths) - 20} more)"
                                      if len(paths) > 20 else "")
    why = ("\nChanged since they were made:\n  " + "\n  ".join(changed)) if changed else ""
    return (f"{len(paths)} protected output(s) would be redone (the prompt, the system's "
            f"settings, the code or the inputs that made them changed, or the run forces "
            f"them); stopping before anything runs:\n  {shown}{why}\nCheck the list; to "
            f"redo them, run again with `--config {FLAG}=true` (or unlock chosen files: "
            f"chmod u+w FILE, or delete them).")
