"""A ``script:`` rule's code is what its script says, not where the script lives.

Snakemake 9 reruns a ``script:`` rule's jobs when the rule file's line naming the script
changes (it records that line as the rule's "code", ``PersistenceBase._code``) or when the
script's file is newer than the job's outputs (``Job.outputs_older_than_script_or_notebook``):
both follow the script's place, and a checkout or a move gives every file a new time. Moving
the benchmarks' scripts into their folders (issue 54) would have rerun every job, translations
included. Here a script rule's code is the sha256 of its script's statements without imports,
docstrings and comment lines (gendermt.workflow.fingerprints.normalized), compared with the
recorded one: editing what a script does reruns its jobs, moving it or touching it does not.
A job recorded before this (its code the script's path line) keeps its outputs; its next run
records the new form. ``shell:`` and ``run:`` rules keep Snakemake's comparison.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from snakemake.jobs import Job
from snakemake.persistence import PersistenceBase

from gendermt.workflow.fingerprints import normalized

#: the recorded code of a script rule, followed by the sha256 of its normalized script
PREFIX = "gendermt script "

_CODE = PersistenceBase._code
_CODE_CHANGED = PersistenceBase._code_changed
_OLDER = Job.outputs_older_than_script_or_notebook


def script_file(rule: Any) -> Path | None:
    """The local file of a rule's ``script:`` (None: no script, or one named by wildcards or
    a URL)."""
    path = getattr(rule, "script", None)
    if not path or "{" in str(path) or "://" in str(path):
        return None
    if not os.path.isabs(path) and getattr(rule, "basedir", None) is not None:
        path = os.path.join(rule.basedir.get_path_or_uri(secret_free=True), path)
    return Path(path) if Path(path).is_file() else None


def script_code(rule: Any) -> str | None:
    file = script_file(rule)
    if file is None:
        return None
    return PREFIX + hashlib.sha256(normalized(file.read_bytes())).hexdigest()


def _code(self: Any, rule: Any) -> str | None:
    return script_code(rule) or _CODE(self, rule)


def _code_changed(self: Any, job: Any, file: Any = None) -> bool:
    current = script_code(job.rule)
    if current is None:
        return _CODE_CHANGED(self, job, file=file)
    fmt_version = self.record_format_version(file)
    recorded = self.code(file)
    if fmt_version is None or fmt_version < 3 or recorded is None:
        return False
    # a record older than this module (the script's path line) stands for the same script
    return recorded.startswith(PREFIX) and recorded != current


async def _older(self: Any):
    if script_code(self.rule) is not None:
        return
    async for found in _OLDER(self):
        yield found


def install() -> None:
    """Compare ``script:`` rules by their scripts' content (once per process)."""
    if PersistenceBase._code_changed is not _code_changed:
        PersistenceBase._code = _code
        PersistenceBase._code_changed = _code_changed
        Job.outputs_older_than_script_or_notebook = _older
