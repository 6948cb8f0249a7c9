"""Snakemake internals this workflow replaces, in one place; each part says what it replaces,
and tests/unit/test_snakemake_overrides.py fails if Snakemake changes it.

1. **The rule files' parse, memoised** (:func:`install_parse_cache`, replaces
   ``snakemake.workflow.parse``).
2. **One pending re-evaluation timer** (:func:`one_pending_reevaluation`, replaces the
   scheduler's ``_schedule_reevalutation``).
3. **Script rules compared by their scripts' content** (:func:`install_script_rules`,
   replaces ``PersistenceBase._code``, ``PersistenceBase._code_changed`` and
   ``Job.outputs_older_than_script_or_notebook``).
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
from functools import cache
from pathlib import Path
from typing import Any

from snakemake.jobs import Job
from snakemake.persistence import PersistenceBase

from gendermt.workflow import startup_cache
from gendermt.workflow.import_graph import normalized

# --- 1. The rule files' parse, memoised --------------------------------------------------------
# Snakemake's translation of the rule files into Python, memoised by their content.
#
# Every ``snakemake`` call runs Snakemake's parser over each included rule file (a tokenizer
# and a state machine in pure Python): about 0.06 s of CPU for the workflow's 14 rule files,
# under 0.01 s served from the cache (the default, 2026-12-05). What it returns, the Python
# code and the rule count after the file, depends only on the file's bytes, its path (written
# into the code), the rule count before it (anonymous rules are numbered) and Snakemake's
# version, so it is kept in :mod:`gendermt.workflow.startup_cache` under those; an edited file
# misses and is parsed again. The line map (Python line -> rule-file line, for error messages) is
# kept with it.
#
# Installed by the workflow (``common.smk``) before it includes the other rule files; only a
# local file parsed with Snakemake's default shell command is served from the cache, anything
# else goes to Snakemake's parser as before.

def _key(path: str, data: bytes, rulecount: int, version: str) -> str:
    head = f"{version}\0{path}\0{rulecount}\0".encode()
    return startup_cache.content_key("snakemake-parse", head + data)


def install_parse_cache(workflow_module: Any) -> bool:
    """Serve ``workflow_module.parse`` (the parser Snakemake's ``Workflow.include`` calls)
    from the start-up cache; False (and nothing changed) where that Snakemake has no such
    function or the cache is off."""
    original = getattr(workflow_module, "parse", None)
    if not callable(original) or getattr(original, "gendermt_cached", False) \
            or not startup_cache.enabled():
        return False
    from snakemake import __version__ as version
    from snakemake.parser import Shell
    from snakemake.sourcecache import LocalSourceFile

    def parse(path: Any, workflow: Any, linemap: dict[int, int],
              overwrite_shellcmd: Any = None, rulecount: int = 0) -> tuple[str, int]:
        if overwrite_shellcmd is not None or not isinstance(path, LocalSourceFile):
            return original(path, workflow, linemap, overwrite_shellcmd, rulecount)
        where = path.get_path_or_uri(secret_free=True)
        try:
            with open(where, "rb") as f:
                data = f.read()
        except OSError:  # Snakemake's own parser says what is wrong with the file
            return original(path, workflow, linemap, overwrite_shellcmd, rulecount)
        key = _key(where, data, rulecount, version)
        hit = startup_cache.get(key)
        if isinstance(hit, dict) and isinstance(hit.get("code"), str):
            Shell.overwrite_cmd = overwrite_shellcmd  # as the parser sets it
            linemap.update((int(k), int(v)) for k, v in hit["linemap"])
            return hit["code"], int(hit["rulecount"])
        code, after = original(path, workflow, linemap, overwrite_shellcmd, rulecount)
        startup_cache.put(key, {"code": code, "rulecount": after,
                                "linemap": sorted(linemap.items())})
        return code, after

    parse.gendermt_cached = True  # type: ignore[attr-defined]
    workflow_module.parse = parse
    return True



# --- 2. One pending re-evaluation timer --------------------------------------------------------
# At most one pending re-evaluation timer in Snakemake's job scheduler.
#
# Snakemake 9's scheduler (up to 9.27 at least) arms a ``threading.Timer`` on every pass of its
# loop while jobs wait for cores, so that a pass follows once the job rate limit
# (``--max-jobs-per-timespan``, default 100/1s) has a free slot. Each timer's pass arms another,
# and every finished job starts a pass of its own, so the timers never run out: with N jobs done
# while others wait, N chains each wake the scheduler once a second. The default's 233 jobs woke
# it 33,819 times in one run, each pass resetting every ready job's params and resources and
# stat-ing their inputs: 87-92 s of the main process's CPU, a seventh of the run's, against 13 s
# with one pending timer (measured on the default, 2 cores).
#
# One pending timer keeps what the timers are for: a pass within the delay after one is asked
# for, and the loop arms the next while jobs still wait. The timer is a daemon thread, so that
# Snakemake does not wait for it at exit (up to a second on every call).

def one_pending_reevaluation(scheduler: Any) -> bool:
    """Make ``scheduler`` (Snakemake's ``JobScheduler``) arm no re-evaluation timer while one
    that fires as soon or sooner is pending; False (and nothing changed) where its Snakemake
    has no such timers."""
    semaphore = getattr(scheduler, "_open_jobs", None)
    if not callable(getattr(scheduler, "_schedule_reevalutation", None)) \
            or not hasattr(semaphore, "release"):
        return False
    lock = threading.Lock()
    due: dict[threading.Timer, float] = {}  # pending timers and when each fires

    def schedule(delay: float) -> None:
        at = time.monotonic() + delay
        with lock:
            if any(when <= at for when in due.values()):
                return  # a pass comes soon enough; it re-arms while jobs still wait
            timer = threading.Timer(delay, lambda: fire(timer))
            timer.daemon = True
            due[timer] = at
        timer.start()

    def fire(timer: threading.Timer) -> None:
        with lock:
            due.pop(timer, None)
        semaphore.release()

    scheduler._schedule_reevalutation = schedule  # the upstream name, misspelt there
    return True



# --- 3. Script rules compared by content -------------------------------------------------------
# A ``script:`` rule's code is what its script says, not where the script lives.
#
# Snakemake 9 reruns a ``script:`` rule's jobs when the rule file's line naming the script
# changes (it records that line as the rule's "code", ``PersistenceBase._code``) or when the
# script's file is newer than the job's outputs (``Job.outputs_older_than_script_or_notebook``):
# both follow the script's place, and a checkout or a move gives every file a new time. Moving
# the benchmarks' scripts into their folders (issue 54) would have rerun every job, translations
# included. Here a script rule's code is the sha256 of its script's statements without imports,
# docstrings and comment lines (gendermt.workflow.fingerprints.normalized), compared with the
# recorded one: editing what a script does reruns its jobs, moving it or touching it does not.
# A job recorded before this (its code the script's path line) keeps its outputs; its next run
# records the new form. ``shell:`` and ``run:`` rules keep Snakemake's comparison.

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
    stat = file.stat()
    return _script_code(file, stat.st_mtime_ns, stat.st_size)


@cache  # asked for every output of every planned job: one parse a script (and version of it)
def _script_code(file: Path, mtime_ns: int, size: int) -> str:
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


def install_script_rules() -> None:
    """Compare ``script:`` rules by their scripts' content (once per process)."""
    if PersistenceBase._code_changed is not _code_changed:
        PersistenceBase._code = _code
        PersistenceBase._code_changed = _code_changed
        Job.outputs_older_than_script_or_notebook = _older
