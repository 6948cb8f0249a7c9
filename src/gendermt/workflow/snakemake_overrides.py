"""Snakemake internals this workflow replaces, in one place; each part says what it replaces,
leaves Snakemake as it ships where that Snakemake lacks it (nothing here imports a private
name at import time), and tests/workflow/test_rule_file_cache.py and test_scheduler_timers.py
fail if the Snakemake they run on changes it. Both are performance only: without them the
workflow computes the same.

1. **The rule files' parse, memoised** (:func:`install_parse_cache`, replaces
   ``snakemake.workflow.parse``).
2. **One pending re-evaluation timer** (:func:`one_pending_reevaluation`, replaces the
   scheduler's ``_schedule_reevalutation``).

A moved or touched ``script:`` file reruns nothing through Snakemake's own setting, not an
override: the workflow profile (profiles/default/config.yaml, and the same line in
profiles/local and profiles/slurm) leaves ``code`` out of ``rerun-triggers``; what a stage
computes is its rule's ``code=`` parameter.
"""

from __future__ import annotations

import inspect
import threading
import time
from typing import Any

from gendermt.workflow import startup_cache

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


#: the parser's parameters this replacement passes on, in Snakemake's order
PARSE_PARAMETERS = ["path", "workflow", "linemap", "overwrite_shellcmd", "rulecount"]


def _parser_parts() -> tuple[str, Any, Any] | None:
    """Snakemake's version, its parser's ``Shell`` and ``LocalSourceFile``, or None where
    that Snakemake's parser is not the one this replacement was written against."""
    try:
        from snakemake import __version__ as version
        from snakemake.parser import Shell, parse
        from snakemake.sourcecache import LocalSourceFile
    except ImportError:
        return None
    if list(inspect.signature(parse).parameters) != PARSE_PARAMETERS:
        return None
    return version, Shell, LocalSourceFile


def install_parse_cache(workflow_module: Any) -> bool:
    """Serve ``workflow_module.parse`` (the parser Snakemake's ``Workflow.include`` calls)
    from the start-up cache; False (and nothing changed) where that Snakemake has no such
    function or another parser signature, or the cache is off."""
    original = getattr(workflow_module, "parse", None)
    parts = _parser_parts()
    if not callable(original) or getattr(original, "gendermt_cached", False) \
            or not startup_cache.enabled() or parts is None:
        return False
    version, Shell, LocalSourceFile = parts

    def parse(path: Any, workflow: Any, linemap: dict[int, int],
              overwrite_shellcmd: Any = None, rulecount: int = 0) -> tuple[str, int]:
        if overwrite_shellcmd is not None or not isinstance(path, LocalSourceFile):
            return original(path, workflow, linemap, overwrite_shellcmd, rulecount)
        where = str(path)  # its path, in every 9.x (get_path_or_uri's arguments vary)
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
# Snakemake 9's scheduler (9.11.3 to 9.27.1 at least) arms a ``threading.Timer`` on every pass
# of its loop while jobs wait for cores, so that a pass follows once the job rate limit
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
