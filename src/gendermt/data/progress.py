"""Progress of long loops, readable on a terminal and in a job's log.

tqdm's carriage-return bar is drawn only when stderr is a terminal (in a log file, ``less``
or a SLURM output it is one endless line); besides it, :class:`Progress` logs a line every
``every`` items (default: about every 5 %; at most one per ``MIN_INTERVAL`` seconds) and at
the end, with the rate and an ETA::

    translate fairtranslate/baseline: 1200/2418 items (50%), 3.1 items/s, ETA 6m33s

``set_quiet(True)`` (the command line's ``--quiet``) turns both off; warnings still show.
"""

from __future__ import annotations

import logging
import math
import sys
import time
from types import TracebackType

from tqdm import tqdm

log = logging.getLogger("gendermt.data.progress")

_QUIET = False
MIN_INTERVAL = 10.0  # seconds between two progress lines of one loop (the last always shows)


def set_quiet(quiet: bool) -> None:
    """No bars and no progress lines (``gendermt --quiet``)."""
    global _QUIET
    _QUIET = bool(quiet)


def duration(seconds: float) -> str:
    """``2h05m``, ``6m33s``, ``12s``: a duration a reader takes in at a glance."""
    if not math.isfinite(seconds):
        return "?"
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}h{minutes:02d}m"
    return f"{minutes}m{secs:02d}s" if minutes else f"{secs}s"


class Progress:
    """``with Progress(total, "desc") as p: ... p.update(n)``: a bar on a terminal, a log
    line every ``every`` items and one at the end. ``initial`` items were done before (a
    resumed job): they count towards the position, not the rate."""

    def __init__(self, total: int, desc: str, *, unit: str = "item", initial: int = 0,
                 every: int | None = None, logger: logging.Logger | None = None) -> None:
        self.total, self.desc, self.unit = int(total), desc, unit
        self.done = self._initial = int(initial)
        todo = max(self.total - self._initial, 0)
        self.every = max(1, int(every) if every else math.ceil(todo / 20) if todo else 1)
        self._next = self._initial + self.every
        self._log = logger or log
        self._start = self._last = time.monotonic()
        self._bar = tqdm(total=self.total, initial=self._initial, desc=desc, unit=unit,
                         file=sys.stderr, dynamic_ncols=True, leave=False,
                         disable=True if _QUIET else not _is_terminal())

    def line(self) -> str:
        elapsed = time.monotonic() - self._start
        new = self.done - self._initial
        rate = new / elapsed if elapsed > 0 else float("inf")
        left = self.total - self.done
        eta = left / rate if rate > 0 else float("inf")
        share = f" ({100 * self.done / self.total:.0f}%)" if self.total else ""
        rate_text = f"{rate:.3g} {self.unit}s/s" if math.isfinite(rate) else "–"
        tail = f"ETA {duration(eta)}" if left > 0 else f"done in {duration(elapsed)}"
        return (f"{self.desc}: {self.done}/{self.total} {self.unit}s{share}, {rate_text}, "
                f"{tail}")

    def update(self, n: int = 1) -> None:
        self.done += n
        self._bar.update(n)
        if not _QUIET and self.done >= self._next and self.done < self.total:
            self._next = self.done + self.every
            now = time.monotonic()
            if now - self._last >= MIN_INTERVAL:  # a short loop logs only its last line
                self._last = now
                self._log.info("%s", self.line())

    def close(self) -> None:
        self._bar.close()
        if not _QUIET and self.done > self._initial:
            self._log.info("%s", self.line())

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def _is_terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # replaced or closed stderr
        return False
