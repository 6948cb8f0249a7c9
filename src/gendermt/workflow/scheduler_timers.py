"""At most one pending re-evaluation timer in Snakemake's job scheduler.

Snakemake 9's scheduler (up to 9.27 at least) arms a ``threading.Timer`` on every pass of its
loop while jobs wait for cores, so that a pass follows once the job rate limit
(``--max-jobs-per-timespan``, default 100/1s) has a free slot. Each timer's pass arms another,
and every finished job starts a pass of its own, so the timers never run out: with N jobs done
while others wait, N chains each wake the scheduler once a second. The default's 233 jobs woke
it 33,819 times in one run, each pass resetting every ready job's params and resources and
stat-ing their inputs: 87-92 s of the main process's CPU, a seventh of the run's, against 13 s
with one pending timer (measured on the default, 2 cores).

One pending timer keeps what the timers are for: a pass within the delay after one is asked
for, and the loop arms the next while jobs still wait. The timer is a daemon thread, so that
Snakemake does not wait for it at exit (up to a second on every call).
"""

from __future__ import annotations

import threading
import time
from typing import Any


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
