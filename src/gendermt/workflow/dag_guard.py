"""No table is built from a results/ file the current run did not plan.

Snakemake takes a file it finds on disk as a source file when the job that would make it
cannot be planned (an input of that job is missing; snakemake/snakemake#2159, #3280, #3953:
the error is dropped and the DAG built on the old file, "No producers found, but file ... is
present on disk"). Every file under ``results/<run>/`` is made by a rule of this workflow, so
a job whose input there has no producing job in the DAG is reading what an earlier run left:
:func:`check_planned_inputs` stops the run before any job starts (the workflow's
``onstart``), naming the job and the file. The start-up checks (data sources, system files,
templates) catch the usual causes before the DAG is built; this catches any other.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from gendermt.core.errors import GenderMTError

SHOWN = 5


def unplanned_inputs(dag: Any, results: str | Path) -> list[tuple[str, str]]:
    """(rule, file) of every job input under ``results`` that no job of ``dag`` produces."""
    prefix = Path(results).as_posix().rstrip("/") + "/"
    found = []
    for job in dag.jobs:
        produced: set[str] = set()
        for files in dag.dependencies[job].values():
            produced.update(str(f) for f in files)
        for file in job.input:
            name = Path(str(file)).as_posix()
            if name.startswith(prefix) and str(file) not in produced:
                found.append((job.rule.name, str(file)))
    return sorted(set(found))


def check_planned_inputs(dag: Any, results: str | Path) -> None:
    """Raise :class:`GenderMTError` if a job reads a results file no planned job makes."""
    found = unplanned_inputs(dag, results)
    if found:
        raise GenderMTError(_message(found))


def _message(found: Iterable[tuple[str, str]]) -> str:
    found = list(found)
    shown = "; ".join(f"{file} (read by {rule})" for rule, file in found[:SHOWN])
    more = f" and {len(found) - SHOWN} more" if len(found) > SHOWN else ""
    return (f"results of an earlier run would be used as source files, because the jobs that "
            f"make them cannot be planned (a file they need is missing; `snakemake -n` "
            f"names it with --debug-dag): {shown}{more}; nothing was run")
