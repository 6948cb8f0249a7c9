"""gendermt.workflow.snakemake_overrides (part 2): Snakemake's scheduler keeps one
re-evaluation timer pending, not one per finished job (issue 30: the main process's CPU)."""

import os
import re
import subprocess
import threading
import time
from pathlib import Path

import pytest

from gendermt.workflow.snakemake_overrides import one_pending_reevaluation

from ..workflow_support import ROOT, RUN_TIMEOUT, snakemake_exe

SRC = ROOT / "src"


class FakeScheduler:
    def __init__(self):
        self._open_jobs = threading.Semaphore(0)

    def _schedule_reevalutation(self, delay):
        raise AssertionError("replaced")


def releases_within(semaphore, seconds):
    n, end = 0, time.monotonic() + seconds
    while semaphore.acquire(timeout=max(0.0, end - time.monotonic())):
        n += 1
    return n


def test_many_requests_arm_one_timer_and_it_fires():
    sched = FakeScheduler()
    assert one_pending_reevaluation(sched)
    for _ in range(50):
        sched._schedule_reevalutation(0.2)
    assert releases_within(sched._open_jobs, 0.6) == 1
    # once it fired, the next request arms a new one
    sched._schedule_reevalutation(0.1)
    assert releases_within(sched._open_jobs, 0.4) == 1


def test_a_sooner_request_is_not_held_back_by_a_later_timer():
    sched = FakeScheduler()
    one_pending_reevaluation(sched)
    sched._schedule_reevalutation(5)
    t0 = time.monotonic()
    sched._schedule_reevalutation(0.1)
    assert sched._open_jobs.acquire(timeout=2)
    assert time.monotonic() - t0 < 1.5


def test_the_timers_do_not_keep_the_process_alive():
    sched = FakeScheduler()
    one_pending_reevaluation(sched)
    before = set(threading.enumerate())
    sched._schedule_reevalutation(60)
    armed = [t for t in set(threading.enumerate()) - before if isinstance(t, threading.Timer)]
    assert len(armed) == 1 and armed[0].daemon


def test_a_scheduler_without_the_timers_is_left_alone():
    class Other:
        pass

    assert not one_pending_reevaluation(Other())


def test_the_installed_snakemake_has_what_is_replaced():
    # a Snakemake that renames these would silently lose the fix: fail here instead
    from snakemake.scheduling.job_scheduler import JobScheduler

    assert callable(JobScheduler._schedule_reevalutation)
    source = Path(JobScheduler.__init__.__code__.co_filename).read_text()
    assert "self._open_jobs = threading.Semaphore(0)" in source


SNAKEFILE = """
from gendermt.workflow.snakemake_overrides import one_pending_reevaluation

onstart:
    if config.get("fix"):
        assert one_pending_reevaluation(workflow.scheduler)

rule all:
    input: expand("o/{i}.txt", i=range(16))

rule one:
    output: "o/{i}.txt"
    shell: "sleep 0.4; touch {output}"
"""


def scheduler_passes(tmp_path, fix: bool, snakemake: str | None = None) -> int:
    """The scheduler's passes in a run of 16 jobs on one core, by ``snakemake`` (the one
    beside this Python by default)."""
    work = tmp_path / ("fixed" if fix else "upstream")
    work.mkdir()
    (work / "Snakefile").write_text(SNAKEFILE)
    # gendermt from this checkout, whichever Snakemake's environment runs it
    path = os.pathsep.join(filter(None, [str(SRC), os.environ.get("PYTHONPATH")]))
    proc = subprocess.run([snakemake or snakemake_exe(), "--cores", "1", "--verbose",
                           "--config", f"fix={int(fix)}"], env={**os.environ, "PYTHONPATH": path},
                          cwd=work, capture_output=True, text=True, timeout=RUN_TIMEOUT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return len(re.findall(r"Resources before job selection", proc.stderr + proc.stdout))


@pytest.mark.workflow
def test_a_run_with_jobs_waiting_for_cores_passes_the_scheduler_loop_far_less(tmp_path):
    # 16 jobs, one core: 15 wait, and every finished one starts a timer chain upstream
    upstream, fixed = scheduler_passes(tmp_path, False), scheduler_passes(tmp_path, True)
    assert fixed <= 16 + 16, (upstream, fixed)  # a pass per finish and about one per second
    assert upstream >= 2 * fixed, (upstream, fixed)
